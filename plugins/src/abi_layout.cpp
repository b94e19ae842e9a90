// SPDX-License-Identifier: Apache-2.0
//
// The layout of every published ABI struct on LP64 Linux (x86_64, aarch64), pinned, so that a
// field inserted, removed, reordered or retyped in abi.h fails the host's build instead of every
// plugin built before it. Appending a field in a new minor adds its offset line and changes that
// struct's sizeof line; no other line here ever changes within major 1.
#include <starling/sdk/abi_layout.h>

#include <cstddef>

#if defined(__LP64__)

static_assert(sizeof(starling_bytes) == 16);
static_assert(offsetof(starling_bytes, data) == 0);
static_assert(offsetof(starling_bytes, size) == 8);

static_assert(sizeof(starling_sink) == 16);
static_assert(offsetof(starling_sink, context) == 0);
static_assert(offsetof(starling_sink, write) == 8);

static_assert(sizeof(starling_host) == 40);
static_assert(STARLING_HOST_SIZE_1_0 == 40);
static_assert(offsetof(starling_host, abi_major) == 0);
static_assert(offsetof(starling_host, abi_minor) == 4);
static_assert(offsetof(starling_host, struct_size) == 8);
static_assert(offsetof(starling_host, context) == 16);
static_assert(offsetof(starling_host, log) == 24);
static_assert(offsetof(starling_host, get_extension) == 32);

static_assert(sizeof(starling_host_cache_v1) == 16);
static_assert(STARLING_HOST_CACHE_V1_SIZE_1_1 == 16);
static_assert(offsetof(starling_host_cache_v1, struct_size) == 0);
static_assert(offsetof(starling_host_cache_v1, directory) == 8);

static_assert(sizeof(starling_host_similarity_v1) == 24);
static_assert(STARLING_HOST_SIMILARITY_V1_SIZE_1_5 == 24);
static_assert(offsetof(starling_host_similarity_v1, struct_size) == 0);
static_assert(offsetof(starling_host_similarity_v1, memories) == 8);
static_assert(offsetof(starling_host_similarity_v1, text) == 16);

static_assert(sizeof(starling_plugin_descriptor) == 80);
static_assert(STARLING_PLUGIN_DESCRIPTOR_SIZE_1_0 == 72);
static_assert(offsetof(starling_plugin_descriptor, abi_major) == 0);
static_assert(offsetof(starling_plugin_descriptor, abi_minor) == 4);
static_assert(offsetof(starling_plugin_descriptor, struct_size) == 8);
static_assert(offsetof(starling_plugin_descriptor, kind) == 12);
static_assert(offsetof(starling_plugin_descriptor, id) == 16);
static_assert(offsetof(starling_plugin_descriptor, version) == 24);
static_assert(offsetof(starling_plugin_descriptor, description) == 32);
static_assert(offsetof(starling_plugin_descriptor, default_settings_json) == 40);
static_assert(offsetof(starling_plugin_descriptor, create) == 48);
static_assert(offsetof(starling_plugin_descriptor, destroy) == 56);
static_assert(offsetof(starling_plugin_descriptor, get_interface) == 64);
static_assert(offsetof(starling_plugin_descriptor, host_minor_required) == 72);

static_assert(sizeof(starling_module_entry) == 40);
static_assert(STARLING_MODULE_ENTRY_SIZE_1_7 == 40);
static_assert(offsetof(starling_module_entry, abi_major) == 0);
static_assert(offsetof(starling_module_entry, abi_minor) == 4);
static_assert(offsetof(starling_module_entry, struct_size) == 8);
static_assert(offsetof(starling_module_entry, init) == 16);
static_assert(offsetof(starling_module_entry, deinit) == 24);
static_assert(offsetof(starling_module_entry, get_factory) == 32);

static_assert(sizeof(starling_plugin_factory_v1) == 24);
static_assert(STARLING_PLUGIN_FACTORY_V1_SIZE_1_7 == 24);
static_assert(offsetof(starling_plugin_factory_v1, struct_size) == 0);
static_assert(offsetof(starling_plugin_factory_v1, count) == 8);
static_assert(offsetof(starling_plugin_factory_v1, descriptor) == 16);

// The last field is 4 bytes, so the first published size stops short of sizeof's tail padding.
static_assert(sizeof(starling_memory_view) == 184);
static_assert(STARLING_MEMORY_VIEW_SIZE_1_0 == 148);
static_assert(offsetof(starling_memory_view, struct_size) == 0);
static_assert(offsetof(starling_memory_view, key) == 8);
static_assert(offsetof(starling_memory_view, scope) == 24);
static_assert(offsetof(starling_memory_view, tier) == 40);
static_assert(offsetof(starling_memory_view, type) == 56);
static_assert(offsetof(starling_memory_view, summary) == 72);
static_assert(offsetof(starling_memory_view, tags) == 88);
static_assert(offsetof(starling_memory_view, body) == 104);
static_assert(offsetof(starling_memory_view, created) == 120);
static_assert(offsetof(starling_memory_view, last_accessed) == 128);
static_assert(offsetof(starling_memory_view, access_count) == 136);
static_assert(offsetof(starling_memory_view, session_count) == 140);
static_assert(offsetof(starling_memory_view, flags) == 144);
static_assert(offsetof(starling_memory_view, id) == 152);     // 1.4
static_assert(offsetof(starling_memory_view, fields) == 168); // 1.4

static_assert(sizeof(starling_memory_batch) == 32);
static_assert(STARLING_MEMORY_BATCH_SIZE_1_0 == 32);
static_assert(offsetof(starling_memory_batch, struct_size) == 0);
static_assert(offsetof(starling_memory_batch, flags) == 4);
static_assert(offsetof(starling_memory_batch, now) == 8);
static_assert(offsetof(starling_memory_batch, count) == 16);
static_assert(offsetof(starling_memory_batch, items) == 24);

static_assert(sizeof(starling_adapter_v1) == 32);
static_assert(STARLING_ADAPTER_V1_SIZE_1_0 == 24);
static_assert(offsetof(starling_adapter_v1, struct_size) == 0);
static_assert(offsetof(starling_adapter_v1, parse) == 8);
static_assert(offsetof(starling_adapter_v1, render) == 16);
static_assert(offsetof(starling_adapter_v1, integration) == 24); // 1.3

static_assert(sizeof(starling_session_history_v1) == 16); // 1.8
static_assert(STARLING_SESSION_HISTORY_V1_SIZE_1_8 == 16);
static_assert(offsetof(starling_session_history_v1, struct_size) == 0);
static_assert(offsetof(starling_session_history_v1, read) == 8);

static_assert(sizeof(starling_decision_v1) == 32);
static_assert(STARLING_DECISION_V1_SIZE_1_0 == 24);
static_assert(offsetof(starling_decision_v1, struct_size) == 0);
static_assert(offsetof(starling_decision_v1, decide) == 8);
static_assert(offsetof(starling_decision_v1, review_request) == 16);
static_assert(offsetof(starling_decision_v1, flags) == 24); // 1.6

static_assert(sizeof(starling_decay_v1) == 24);
static_assert(STARLING_DECAY_V1_SIZE_1_0 == 16);
static_assert(offsetof(starling_decay_v1, struct_size) == 0);
static_assert(offsetof(starling_decay_v1, plan) == 8);
static_assert(offsetof(starling_decay_v1, flags) == 16); // 1.4

static_assert(sizeof(starling_duplicates_v1) == 16);
static_assert(STARLING_DUPLICATES_V1_SIZE_1_3 == 16);
static_assert(offsetof(starling_duplicates_v1, struct_size) == 0);
static_assert(offsetof(starling_duplicates_v1, similarity) == 8);

static_assert(sizeof(starling_relevance_v1) == 16);
static_assert(STARLING_RELEVANCE_V1_SIZE_1_0 == 16);
static_assert(offsetof(starling_relevance_v1, struct_size) == 0);
static_assert(offsetof(starling_relevance_v1, score) == 8);

static_assert(sizeof(starling_collection) == 40);
static_assert(STARLING_COLLECTION_SIZE_1_2 == 40);
static_assert(offsetof(starling_collection, struct_size) == 0);
static_assert(offsetof(starling_collection, id) == 8);
static_assert(offsetof(starling_collection, version) == 24);

static_assert(sizeof(starling_ranking_sink) == 16);
static_assert(offsetof(starling_ranking_sink, context) == 0);
static_assert(offsetof(starling_ranking_sink, add) == 8);

static_assert(sizeof(starling_relevance_index_v1) == 32);
static_assert(STARLING_RELEVANCE_INDEX_V1_SIZE_1_2 == 32);
static_assert(offsetof(starling_relevance_index_v1, struct_size) == 0);
static_assert(offsetof(starling_relevance_index_v1, check) == 8);
static_assert(offsetof(starling_relevance_index_v1, build) == 16);
static_assert(offsetof(starling_relevance_index_v1, rank) == 24);

#endif
