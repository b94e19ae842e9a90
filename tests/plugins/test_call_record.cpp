// SPDX-License-Identifier: Apache-2.0
#include <starling/plugins/call_record.hpp>

#include <catch2/catch.hpp>

using starling::plugins::plugin_call_record;
using starling::plugins::PluginCallRecord;
using starling::plugins::PluginCallScope;
using starling::plugins::record_plugin_calls_in;
using starling::plugins::running_call;

TEST_CASE("the call record names the plugin call in progress, and only while it runs", "[plugins][containment]") {
    PluginCallRecord record;
    record_plugin_calls_in(&record);
    CHECK_FALSE(running_call(record));
    {
        const PluginCallScope outer{"bm25", "score"};
        auto running = running_call(record);
        REQUIRE(running);
        CHECK(running->describe() == "plugin 'bm25' in `score`");
        CHECK(running->running.count() >= 0);
        {
            const PluginCallScope inner{"/p/starling-x.so", "load"};
            CHECK(running_call(record)->describe() == "module /p/starling-x.so while loading");
        }
        // The caller is named again once the inner call is over.
        CHECK(running_call(record)->describe() == "plugin 'bm25' in `score`");
    }
    CHECK_FALSE(running_call(record));
    record_plugin_calls_in(nullptr);
    CHECK(&plugin_call_record() != &record);
}

TEST_CASE("a name longer than the record holds is cut, not overrun", "[plugins][containment]") {
    PluginCallRecord record;
    record_plugin_calls_in(&record);
    const std::string long_path(1000, 'p');
    {
        const PluginCallScope loading{long_path, "load"};
        CHECK(running_call(record)->plugin == long_path.substr(0, sizeof(PluginCallRecord::plugin) - 1));
    }
    record_plugin_calls_in(nullptr);
}
