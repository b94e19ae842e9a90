/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Starling plugin ABI — the whole binary contract between the Starling host and a plugin module.
 *
 * Rules (docs/plugin-abi.md explains each):
 *  - Pure C. No C++ type, exception or allocation crosses this boundary.
 *  - Text crosses as UTF-8 byte spans (starling_bytes), borrowed for the duration of one call.
 *  - Output goes back through host-owned sinks: the plugin never allocates memory the host frees.
 *  - Every struct that may grow starts with (or carries) its size; fields are only ever appended.
 *    A minor version bump appends fields; a major bump is the only way to change or remove one.
 *  - A module exports one entry: the data symbol starling_module (a starling_module_entry, since
 *    1.7: init/deinit with the module's path and a factory, so one module may offer several
 *    plugins) or, as modules built before 1.7 do, the function starling_plugin_entry (one plugin).
 *    In-tree plugins linked statically into a Starling binary export starling_plugin_entry_<id>
 *    instead (see STARLING_DECLARE_PLUGIN).
 *  - Any 1.x plugin loads in any 1.x host from 1.7 on: the minor a plugin was built against is
 *    information, not a gate. Sizes and extension ids say what each side has; a plugin that needs
 *    a newer host says so in host_minor_required.
 *
 * Threading tags, as in CLAP:
 *  [main-thread]  called from the thread that loaded the plugin, never concurrently with itself.
 *  [thread-safe]  may be called from any thread, concurrently.
 *  [instance]     called with one instance from one thread at a time; different instances may run
 *                 concurrently.
 */
#ifndef STARLING_SDK_ABI_H
#define STARLING_SDK_ABI_H

#include <stddef.h>
#include <stdint.h>

#define STARLING_ABI_MAJOR 1u
#define STARLING_ABI_MINOR 11u

#if defined(_WIN32)
#define STARLING_EXPORT __declspec(dllexport)
#else
#define STARLING_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A borrowed UTF-8 byte span, not NUL-terminated. data may be NULL only when size is 0. */
typedef struct starling_bytes {
    const char *data;
    size_t size;
} starling_bytes;

/*
 * A host-owned output channel. The plugin calls write() zero or more times; the host appends each
 * chunk. The chunk is copied before write() returns, so the plugin may reuse its buffer.
 * [instance] write() is only ever called by the plugin during the call that received the sink.
 */
typedef struct starling_sink {
    void *context;
    void (*write)(void *context, starling_bytes chunk);
} starling_sink;

/* Result of every plugin call. Fixed-width so the ABI does not depend on enum sizing; the
 * constants are plain literals so that C++ code can use them without casts. */
typedef int32_t starling_status;
#define STARLING_STATUS_OK 0
/* The input was malformed or violated the contract; the message sink says what and where. */
#define STARLING_STATUS_INVALID_INPUT 1
/* The plugin failed for its own reasons (a C++ SDK plugin threw); the message sink says why. */
#define STARLING_STATUS_INTERNAL_ERROR 2
/* The plugin does not implement this request. */
#define STARLING_STATUS_UNSUPPORTED 3
/*
 * Since ABI 1.2. The plugin could not answer from what it keeps (an index missing, damaged, or
 * built for another version of the data); the host answers another way, and may ask the plugin to
 * rebuild. Not a failure: nothing is written to the error sink.
 */
#define STARLING_STATUS_STALE 4

/*
 * Plugin kinds. A host that does not know a kind lists the plugin but never calls into it, so new
 * kinds can be added in a minor version without breaking built plugins or older hosts.
 */
typedef uint32_t starling_plugin_kind;
#define STARLING_KIND_ADAPTER 1u
#define STARLING_KIND_DECISION_POLICY 2u
#define STARLING_KIND_DECAY_POLICY 3u
#define STARLING_KIND_RELEVANCE_POLICY 4u

typedef uint32_t starling_log_level;
#define STARLING_LOG_DEBUG 0u
#define STARLING_LOG_INFO 1u
#define STARLING_LOG_WARNING 2u
#define STARLING_LOG_ERROR 3u

/*
 * What the host offers a plugin. Owned by the host; valid from create() until destroy() of every
 * instance created with it. Grow-only: read a field only if struct_size covers it.
 */
typedef struct starling_host {
    uint32_t abi_major;
    uint32_t abi_minor;
    uint32_t struct_size; /* sizeof(starling_host) as the host was built */
    void *context;        /* opaque; pass back unchanged */
    /* [thread-safe] Writes one line to Starling's log file (never to the agent). message is borrowed. */
    void (*log)(void *context, starling_log_level level, starling_bytes message);
    /*
     * [thread-safe] Returns a host extension table identified by "starling.host.<name>/<rev>", or
     * NULL if this host does not offer it. The table is owned by the host and lives as long as
     * the host struct.
     */
    const void *(*get_extension)(void *context, const char *extension_id);
} starling_host;

/* ---------------------------------------------------------------------------------------------
 * Host extensions, fetched with starling_host.get_extension. Each table is grow-only and starts
 * with its own size. A host that lacks one returns NULL, and the plugin must then do without it.
 * ------------------------------------------------------------------------------------------- */

/* Since ABI 1.1. */
#define STARLING_HOST_CACHE_EXTENSION_V1 "starling.host.cache/1"

/*
 * A directory of the plugin's own, for data it derives from what the host hands it (a token
 * index, say), so that the next process need not derive it again. The host offers it only when it
 * knows a store to keep it in.
 */
typedef struct starling_host_cache_v1 {
    uint32_t struct_size; /* sizeof(starling_host_cache_v1) as the host was built */
    /*
     * [thread-safe] The absolute path of the directory: never empty, not NUL-terminated, its bytes
     * as the operating system takes them. host_context is starling_host.context. The bytes are
     * owned by the host and live as long as the host struct. The directory belongs to this plugin
     * alone, but may not exist yet: the plugin creates it (and any files in it) when it first
     * writes. Its contents are a cache: the user may delete them at any time, another process
     * running the same plugin may replace them at any moment, and the plugin must validate
     * everything it reads there before trusting it, and write so that a reader never sees a
     * half-written file (write elsewhere, rename).
     */
    starling_bytes (*directory)(void *host_context);
} starling_host_cache_v1;

/*
 * What a plugin offers the host. Returned by the entry function; static storage inside the
 * module, never freed. Grow-only: the host reads a field only if struct_size covers it.
 */
typedef struct starling_plugin_descriptor {
    uint32_t abi_major;   /* STARLING_ABI_MAJOR the plugin was built against */
    uint32_t abi_minor;   /* STARLING_ABI_MINOR the plugin was built against */
    uint32_t struct_size; /* sizeof(starling_plugin_descriptor) as the plugin was built */
    starling_plugin_kind kind;
    const char *id;          /* unique across all plugins: [a-z0-9][a-z0-9-]*, NUL-terminated */
    const char *version;     /* the plugin's own version, semver */
    const char *description; /* one line, for `starling plugins` */
    /*
     * Every setting the plugin reads, with its default, as a JSON object ("{}" for none). The
     * host validates the user's settings table against it (unknown key or wrong type is a
     * configuration error naming file, line and key) and prints it in `starling config show`.
     */
    const char *default_settings_json;
    /*
     * [main-thread] Creates an instance. settings_json is the plugin's effective settings: the
     * defaults overlaid with the user's table, as a JSON object. Returns NULL on failure after
     * writing the reason to error. The instance is owned by the host and released with destroy().
     */
    void *(*create)(const starling_host *host, starling_bytes settings_json, starling_sink error);
    /* [main-thread] Releases an instance created by create(). Must not fail. NULL is ignored. */
    void (*destroy)(void *instance);
    /*
     * [thread-safe] Returns the kind's call table, e.g. "starling.relevance/1", or NULL if the
     * plugin does not implement it. Static storage inside the module.
     */
    const void *(*get_interface)(const char *interface_id);
    /*
     * Since ABI 1.7. The oldest host minor this plugin works with: a host of a lower minor refuses
     * it (needs_newer_host). 0 when the plugin does without everything it might lack, reading the
     * host's structs only as far as their struct_size goes and asking for extensions it can live
     * without — which is what a plugin that was merely rebuilt against a newer SDK does.
     */
    uint32_t host_minor_required;
} starling_plugin_descriptor;

/*
 * The entry function. A plugin returns NULL when it cannot serve host->abi_major. It may be
 * called more than once and must return the same descriptor each time. [main-thread]
 */
typedef const starling_plugin_descriptor *(*starling_plugin_entry_fn)(const starling_host *host);

#define STARLING_PLUGIN_ENTRY_SYMBOL "starling_plugin_entry"

/*
 * Since ABI 1.7: a module, as CLAP's clap_entry is — initialised once with where it lives, asked
 * for factories by id, deinitialised once. Exported as the data symbol starling_module;
 * static storage inside the module. A module that exports it is loaded through it alone, whatever
 * else it exports. Grow-only: the host reads a field only if struct_size covers it.
 */
typedef struct starling_module_entry {
    uint32_t abi_major;   /* STARLING_ABI_MAJOR the module was built against */
    uint32_t abi_minor;   /* STARLING_ABI_MINOR the module was built against; information only */
    uint32_t struct_size; /* sizeof(starling_module_entry) as the module was built */
    /*
     * [main-thread] Called once, before anything else in the module, with the host and the
     * module's own file as an absolute path (NUL-terminated, borrowed for the call), so that the
     * module can find data shipped beside it. Returns 0 when the module cannot serve this host
     * (host_rejected); deinit is then not called. Must be cheap: hooks load modules on their path.
     */
    int32_t (*init)(const starling_host *host, const char *module_path);
    /*
     * [main-thread] Called once, after the last instance of every plugin of the module was
     * destroyed, when the host lets the module go. Not called when the process is ended (a hook's
     * worker that overran its budget, a crash): release nothing there that the system would not.
     */
    void (*deinit)(void);
    /* [thread-safe] A factory by id, e.g. STARLING_PLUGIN_FACTORY_V1, or NULL. Static storage. */
    const void *(*get_factory)(const char *factory_id);
} starling_module_entry;

#define STARLING_MODULE_ENTRY_SYMBOL "starling_module"

/* Since ABI 1.7: the plugins a module offers. */
#define STARLING_PLUGIN_FACTORY_V1 "starling.plugin-factory/1"

typedef struct starling_plugin_factory_v1 {
    uint32_t struct_size; /* sizeof(starling_plugin_factory_v1) as the module was built */
    /* [main-thread] How many plugins the module offers; the same number on every call. */
    uint32_t (*count)(void);
    /*
     * [main-thread] The descriptor of plugin index (0 <= index < count()), as starling_plugin_entry
     * returns one: NULL when the plugin cannot serve host->abi_major. Static storage; the same
     * descriptor on every call.
     */
    const starling_plugin_descriptor *(*descriptor)(const starling_host *host, uint32_t index);
} starling_plugin_factory_v1;

/* ---------------------------------------------------------------------------------------------
 * Memories, as policies see them. The host builds the views; everything is borrowed for the call.
 * ------------------------------------------------------------------------------------------- */

typedef struct starling_memory_view {
    uint32_t struct_size;  /* sizeof(starling_memory_view) as the host was built */
    starling_bytes key;    /* stable identity: path relative to the store root, '/'-separated */
    starling_bytes scope;  /* "user" or "project" */
    starling_bytes tier;   /* "short" or "long" */
    starling_bytes type;   /* "feedback", "user", "project", "reference", or another type */
    starling_bytes summary;
    starling_bytes tags;   /* tags joined by '\n'; empty when there are none */
    starling_bytes body;   /* empty if the batch was built without bodies (see batch flags) */
    int64_t created;       /* seconds since the Unix epoch, UTC */
    int64_t last_accessed; /* seconds since the Unix epoch, UTC */
    uint32_t access_count;
    uint32_t session_count; /* distinct sessions that accessed the memory */
    uint32_t flags;         /* STARLING_MEMORY_* bits */
    /*
     * Since ABI 1.4: read only when struct_size covers them.
     * id: the memory's stable short id (7 characters of [0-9a-z]); a key changes when a memory moves
     * between tiers, its id never does. Links between memories name their targets by id.
     */
    starling_bytes id;
    /*
     * Every frontmatter field of the memory that the view has no member for, as one JSON object in
     * file order: another memory system's `salience`, `trigger` or `strength`, the user's own
     * fields, Starling's bookkeeping (`injection_count`, `merged_from`, ...), and `links`. A value
     * written as an inline list (`[a, b]`) is an array of strings, any other value a string; "{}"
     * when there are none. Read-only: a decay policy changes a field with a `set_field` action.
     * `links` lists the memory's links to others, each item `<id>` or `<relation>:<id>` (relation
     * `related` when none is given); docs/plugin-abi.md lists the relations Starling knows.
     */
    starling_bytes fields;
} starling_memory_view;

#define STARLING_MEMORY_UNDER_REVIEW 1u /* marked [review] by a decay policy */
/* Since ABI 1.4. Pinned by the user: the host never archives, reviews or merges it away. */
#define STARLING_MEMORY_PINNED 2u

typedef struct starling_memory_batch {
    uint32_t struct_size; /* sizeof(starling_memory_batch) as the host was built */
    uint32_t flags;       /* STARLING_BATCH_* bits */
    int64_t now;          /* the host's clock, seconds since the Unix epoch, UTC */
    size_t count;
    const starling_memory_view *const *items; /* count pointers, none NULL */
} starling_memory_batch;

#define STARLING_BATCH_HAS_BODIES 1u

/* ---------------------------------------------------------------------------------------------
 * Host extensions over memories, fetched with starling_host.get_extension like the ones above.
 * ------------------------------------------------------------------------------------------- */

/* Since ABI 1.5. */
#define STARLING_HOST_SIMILARITY_EXTENSION_V1 "starling.host.similarity/1"

/*
 * How similar memories are, as the active relevance policy judges them: so that a decay policy can
 * link and cluster memories by what the user's chosen relevance policy finds in them, instead of
 * by a similarity of its own. The host offers it when a relevance policy is configured.
 *
 * Each memory is asked as a query: its summary, its tags and, when the batch has bodies, its body,
 * one per line. r_i = the relevance policy's scores of query i over the whole batch (one call per
 * memory, so every score of a row comes from the same call). The directed similarity
 * d(i,j) = r_i[j] / r_i[i] clamped into [0, 1] (0 when r_i[i] is not a positive finite number: a
 * memory its own query does not find is similar to nothing), and the similarity of i and j is
 * min(d(i,j), d(j,i)): symmetric, 1 for a memory and itself, and as deterministic as the policy.
 * Costs batch->count (+1) calls of the relevance policy over the batch: quadratic, for decay
 * planning, not for a hook's path.
 */
typedef struct starling_host_similarity_v1 {
    uint32_t struct_size; /* sizeof(starling_host_similarity_v1) as the host was built */
    /*
     * [instance] Only during a call the host made into the plugin, on its thread. Writes
     * batch->count * batch->count values to the plugin-owned similarities, row-major: entry
     * [i * count + j] is the similarity of memories i and j. host_context is starling_host.context.
     * On failure (the relevance policy failed, or the host was asked from within a similarity
     * call) returns a failure status and writes why to error; the values are then unspecified.
     */
    starling_status (*memories)(void *host_context, const starling_memory_batch *batch, double *similarities,
                                starling_sink error);
    /*
     * [instance] As memories(), for text as a memory not yet stored (its summary and body the
     * text) against each memory of the batch: writes batch->count values.
     */
    starling_status (*text)(void *host_context, starling_bytes text, const starling_memory_batch *batch,
                            double *similarities, starling_sink error);
} starling_host_similarity_v1;

/* ---------------------------------------------------------------------------------------------
 * Kind interfaces. Each table is grow-only and starts with its own size.
 * ------------------------------------------------------------------------------------------- */

#define STARLING_ADAPTER_INTERFACE_V1 "starling.adapter/1"

/* An agent adapter: that agent's hook payloads in, canonical events out, replies rendered back. */
typedef struct starling_adapter_v1 {
    uint32_t struct_size;
    /*
     * [instance] Parses one hook invocation. invocation_json is {"argv":[...]} (the arguments
     * after the program name); payload is stdin as received. Writes the canonical event as a JSON
     * object to event_out (schema: docs/plugin-abi.md). Unknown events yield {"kind":"other",...}.
     */
    starling_status (*parse)(void *instance, starling_bytes invocation_json, starling_bytes payload,
                             starling_sink event_out, starling_sink error);
    /*
     * [instance] Renders a reply for the agent. reply_json is {"event":<canonical event>,
     * "reply":{"context":..,"user_message":..,"block":..}}. Writes the exact stdout bytes to
     * stdout_out and stores the process exit code in *exit_code.
     */
    starling_status (*render)(void *instance, starling_bytes reply_json, starling_sink stdout_out,
                              int32_t *exit_code, starling_sink error);
    /*
     * Since ABI 1.3: read only when struct_size covers it; may be NULL. [instance] Writes how
     * Starling is installed into this agent, as a JSON object (schema: docs/plugin-abi.md, "Agent
     * integration"): the files in which the agent reads its hooks and instructions, the events to
     * register, and the environment variables that name a session. `starling install` and
     * `uninstall` take every agent fact from here. STARLING_STATUS_UNSUPPORTED (or NULL) means the
     * adapter parses and renders but cannot be installed.
     */
    starling_status (*integration)(void *instance, starling_sink integration_out, starling_sink error);
} starling_adapter_v1;

/* Since ABI 1.8. Optional for adapters of an agent that keeps its own record of past sessions (its
 * transcripts, where the adapter's integration says under "history"): the user's prompts in them,
 * for `starling import history`. */
#define STARLING_SESSION_HISTORY_INTERFACE_V1 "starling.session-history/1"

typedef struct starling_session_history_v1 {
    uint32_t struct_size;
    /*
     * [instance] Reads one file of the agent's session records: path, where the host found it, and
     * its whole text. Writes to prompts_out a JSON object whose "prompts" are what the user said, in
     * the order the agent recorded it: {"prompts": [{"text": …, "time": ISO 8601 as recorded,
     * "session_id": …, "working_directory": …}]}. What the agent said in the user's name (tool
     * results, command output, summaries) is not a prompt. A file of no format the adapter knows
     * yields no prompts.
     */
    starling_status (*read)(void *instance, starling_bytes path, starling_bytes text, starling_sink prompts_out,
                            starling_sink error);
} starling_session_history_v1;

#define STARLING_DECISION_INTERFACE_V1 "starling.decision/1"

/* A decision policy: which user messages become memories, of which type, in which scope. */
typedef struct starling_decision_v1 {
    uint32_t struct_size;
    /*
     * [instance] Decides a batch of messages in one call. request_json is
     * {"messages":[{"text":..,"agent":..,"project":..}, ...]}; writes
     * {"decisions":[{"decision":"store"|"discard","type":..,"scope":"user"|"project",
     * "reason":..,"summary":..,"tags":[..]}, ...]} with one decision per message, in order.
     * Since ABI 1.4 a decision may also carry "fields" (an object of further frontmatter fields:
     * strings, arrays of strings), "dedupe_key" (a memory of the scope with the same key is
     * reinforced instead of stored again), "body" (the memory's text when it is not the whole
     * message) and "claims" (an array of decisions of this shape: one message, several memories).
     * docs/plugin-abi.md, "Decisions", has each; an older host ignores them.
     * Since ABI 1.6, when the policy sets STARLING_DECISION_WANTS_CLOSEST_SIMILARITY, a message may
     * also carry "closest_similarity": how closely it restates the memory it is closest to, in
     * [0, 1], as the active decay policy's starling.duplicates/1 judges it, over the memories of
     * the scopes the message could be stored in. Absent when there is no such memory or no judge.
     * A policy that does not set the flag never receives it.
     * Since ABI 1.9, a message may carry "asked_to_keep": true when the person asked for it to be
     * kept (`starling remember`, an agent's memory_remember); a policy may keep what it would
     * otherwise drop for want of a signal of its own. An older policy ignores the key.
     */
    starling_status (*decide)(void *instance, starling_bytes request_json, starling_sink decisions_out,
                              starling_sink error);
    /*
     * [instance] Writes the text that asks the model to run this policy's decision tree over the
     * recent messages. request_json is {"message_count":N,"session_log":"<path>","agent":..}.
     */
    starling_status (*review_request)(void *instance, starling_bytes request_json, starling_sink text_out,
                                      starling_sink error);
    /*
     * Since ABI 1.6: read only when struct_size covers it. STARLING_DECISION_* bits saying what
     * decide() needs. Without STARLING_DECISION_WANTS_CLOSEST_SIMILARITY the host judges no message
     * against the store: a duplicate search per message on every stop is what a policy that does not
     * weigh novelty must not cost.
     */
    uint32_t flags;
} starling_decision_v1;

/* Since ABI 1.6. decide() weighs novelty: give each message its "closest_similarity". */
#define STARLING_DECISION_WANTS_CLOSEST_SIMILARITY 1u

#define STARLING_DECAY_INTERFACE_V1 "starling.decay/1"

/* A decay policy: when memories are reviewed, promoted, merged and forgotten. */
typedef struct starling_decay_v1 {
    uint32_t struct_size;
    /*
     * [instance] Plans the lifecycle actions due at batch->now for every memory in the batch.
     * Writes {"actions":[{"action":"archive"|"mark_review"|"clear_review"|"promote"|"merge",
     * "key":..,"into":..,"reason":..}, ...]}. The host applies the plan under the store lock and
     * archives before it removes anything.
     * Since ABI 1.4 a plan may also hold (docs/plugin-abi.md, "Decay plans", has each field):
     *   {"action":"set_field","key":..,"field":..,"value":"text"|["a","b"]|null}  (null removes it)
     *   {"action":"pin"|"unpin","key":..}
     *   {"action":"link"|"unlink","key":..,"into":<the other memory's key>,"relation":..}
     *   {"action":"move","key":..,"tier":"short"|"long"}   (a layer is the field `layer`: set_field)
     *   {"action":"append","key":..,"text":..}   (a paragraph added to the memory's text, once)
     * A host older than 1.4 (starling_host.abi_minor < 4) refuses a plan that holds them: a policy
     * that plans them checks the host's minor first.
     */
    starling_status (*plan)(void *instance, const starling_memory_batch *batch, starling_sink actions_out,
                            starling_sink error);
    /*
     * Since ABI 1.4: read only when struct_size covers it. STARLING_DECAY_* bits saying what plan()
     * needs. Without STARLING_DECAY_PLANS_WITH_BODIES the host plans from its index alone and hands
     * a batch without bodies: reading every memory's text at every consolidation is what a policy
     * that does not look at texts must not cost the store.
     */
    uint32_t flags;
} starling_decay_v1;

/* Since ABI 1.4. plan() reads the memories' texts: hand it a batch with STARLING_BATCH_HAS_BODIES. */
#define STARLING_DECAY_PLANS_WITH_BODIES 1u

/* Since ABI 1.3. Optional for decay policies. */
#define STARLING_DUPLICATES_INTERFACE_V1 "starling.duplicates/1"

/*
 * How a decay policy tells a message that restates a memory from one that says something new. The
 * host asks before it stores a message as a memory, so that a restatement reinforces the memory it
 * repeats instead of duplicating it; the policy that merges duplicates decides what a duplicate is.
 * Without this interface the host stores every message it is asked to remember as a new memory.
 */
typedef struct starling_duplicates_v1 {
    uint32_t struct_size;
    /*
     * [instance] How closely text restates each memory of the batch: writes batch->count values in
     * [0, 1] to the host-owned similarities (0: nothing in common; 1: the text says nothing the
     * memory does not). A batch with STARLING_BATCH_HAS_BODIES is judged on what each memory says;
     * one without bodies (to pick candidates cheaply) on summaries and tags.
     */
    starling_status (*similarity)(void *instance, starling_bytes text, const starling_memory_batch *batch,
                                  double *similarities, starling_sink error);
} starling_duplicates_v1;

#define STARLING_RELEVANCE_INTERFACE_V1 "starling.relevance/1"

/* A relevance policy: how well each memory answers a query. */
typedef struct starling_relevance_v1 {
    uint32_t struct_size;
    /*
     * [instance] Scores every memory of the batch against query (UTF-8 text) in one call. scores
     * points to batch->count host-owned doubles; the plugin writes each one. 0 means unrelated;
     * higher is more relevant; scores are comparable within one call only.
     */
    starling_status (*score)(void *instance, starling_bytes query, const starling_memory_batch *batch,
                             double *scores, starling_sink error);
} starling_relevance_v1;

/* Since ABI 1.2. Optional for relevance policies; a policy without it is only ever asked to score. */
#define STARLING_RELEVANCE_INDEX_INTERFACE_V1 "starling.relevance-index/1"

/*
 * A set of memories that a relevance policy indexes as one: every memory of one scope. Borrowed
 * for the call.
 */
typedef struct starling_collection {
    uint32_t struct_size; /* sizeof(starling_collection) as the host was built */
    /*
     * Names the collection, stable across processes and versions: "user", or "projects/" followed
     * by a project id (any bytes but '/', '\\' and control characters). Not a file name as it stands.
     */
    starling_bytes id;
    /*
     * Identifies the collection's content: it changes whenever a memory of the collection is
     * added, changed or removed, and two different contents never share a version. Opaque bytes,
     * to be compared whole.
     */
    starling_bytes version;
} starling_collection;

/* A host-owned output channel for ranked memories. */
typedef struct starling_ranking_sink {
    void *context;
    /*
     * [instance] Called by the plugin during the call that received the sink, once per memory, best
     * first. key is borrowed and copied before add() returns.
     */
    void (*add)(void *context, starling_bytes key, double score);
} starling_ranking_sink;

/*
 * A relevance policy that keeps an index of each collection (in its cache directory, see
 * starling.host.cache/1), so that a query reads only what it needs instead of scoring every memory.
 * The index is the policy's business; the host decides when it is built and asks for rankings,
 * and falls back to starling.relevance/1 whenever rank() answers STARLING_STATUS_STALE.
 */
typedef struct starling_relevance_index_v1 {
    uint32_t struct_size;
    /*
     * [instance] Answers STARLING_STATUS_OK if the plugin holds a sound index of exactly this version
     * of the collection, STARLING_STATUS_STALE if not. May read the whole index to check it: the host
     * asks off the path an agent waits on.
     */
    starling_status (*check)(void *instance, const starling_collection *collection, starling_sink error);
    /*
     * [instance] Indexes the collection at collection->version from batch, which holds every memory of
     * the collection, in the host's listing order (by key). Replaces the collection's previous index,
     * so that a concurrent rank() in another process sees the old index or the new one, never a mix.
     */
    starling_status (*build)(void *instance, const starling_collection *collection,
                             const starling_memory_batch *batch, starling_sink error);
    /*
     * [instance] Ranks the memories of collections[0 .. count) against query at time now, exactly as
     * score() would rank one batch of all of them (the collections in this order, each in its build
     * order) with batch->now == now: writes to ranking the `limit` best memories that score above 0,
     * with the scores score() would give, best first, equal scores in batch order. Answers
     * STARLING_STATUS_STALE, having written nothing, when the index of a collection is missing,
     * damaged, or not of the given version.
     */
    starling_status (*rank)(void *instance, starling_bytes query, const starling_collection *const *collections,
                            size_t count, int64_t now, size_t limit, starling_ranking_sink ranking,
                            starling_sink error);
} starling_relevance_index_v1;

/* Since ABI 1.10. Optional for relevance policies that widen a query by themselves. */
#define STARLING_RELEVANCE_FIRST_PASS_INTERFACE_V1 "starling.relevance-first-pass/1"

/*
 * A relevance policy's first pass: how well memories match the query as the policy reads it, before
 * the policy widens the query with terms of its own choosing (pseudo-relevance feedback: the best
 * matches of a first pass lend their words to a second). Feedback drawn from one faint match lends
 * that very memory its own words, so a lone memory that shares a word with a question can rank as
 * if it answered it; the host asks the first pass where that would mislead (a general question).
 * A policy without this interface has no other pass: the host takes its scores as they are.
 */
typedef struct starling_relevance_first_pass_v1 {
    uint32_t struct_size;
    /* [instance] As starling.relevance/1's score(), from the first pass. */
    starling_status (*score)(void *instance, starling_bytes query, const starling_memory_batch *batch,
                             double *scores, starling_sink error);
    /*
     * [instance] As starling.relevance-index/1's rank(), from the first pass, STARLING_STATUS_STALE
     * included. NULL when the policy keeps no index.
     */
    starling_status (*rank)(void *instance, starling_bytes query, const starling_collection *const *collections,
                            size_t count, int64_t now, size_t limit, starling_ranking_sink ranking,
                            starling_sink error);
} starling_relevance_first_pass_v1;

#ifdef __cplusplus
}
#endif

#endif /* STARLING_SDK_ABI_H */
