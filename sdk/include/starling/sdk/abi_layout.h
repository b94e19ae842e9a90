/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Starling plugin ABI — how large each struct was when it was first published, and whether a
 * struct_size reaches a given field: the grow-only rule of abi.h, as both sides apply it.
 *
 *  - A reader accepts a struct whose struct_size is at least its first published size, whatever
 *    minor it was built against, and never requires struct_size == sizeof: the writer may be older
 *    (a smaller struct) or newer (a larger one).
 *  - A reader touches a field appended after the first version only if STARLING_STRUCT_HAS says
 *    struct_size covers it. A function pointer it does not cover is a feature the writer lacks,
 *    never an error.
 *
 * A first published size is where the struct's last field of that version ends, so appending
 * fields never changes it, and it leaves out the tail padding that no field occupies.
 * docs/plugin-abi.md ("Growing a struct") says how to append a field.
 */
#ifndef STARLING_SDK_ABI_LAYOUT_H
#define STARLING_SDK_ABI_LAYOUT_H

#include <starling/sdk/abi.h>

#include <stddef.h>

/* The byte just past field in type: the least struct_size that covers it. */
#ifdef __cplusplus
#define STARLING_FIELD_END(type, field) (offsetof(type, field) + sizeof(type::field))
#else
#define STARLING_FIELD_END(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))
#endif

/* Whether a type whose struct_size is `size` holds field. */
#define STARLING_STRUCT_HAS(type, size, field) ((size) >= STARLING_FIELD_END(type, field))

/* What a plugin hands the host. */
#define STARLING_PLUGIN_DESCRIPTOR_SIZE_1_0 STARLING_FIELD_END(starling_plugin_descriptor, get_interface)
#define STARLING_ADAPTER_V1_SIZE_1_0 STARLING_FIELD_END(starling_adapter_v1, render)
#define STARLING_DECISION_V1_SIZE_1_0 STARLING_FIELD_END(starling_decision_v1, review_request)
#define STARLING_DECAY_V1_SIZE_1_0 STARLING_FIELD_END(starling_decay_v1, plan)
#define STARLING_DUPLICATES_V1_SIZE_1_3 STARLING_FIELD_END(starling_duplicates_v1, similarity)
#define STARLING_RELEVANCE_V1_SIZE_1_0 STARLING_FIELD_END(starling_relevance_v1, score)
#define STARLING_RELEVANCE_INDEX_V1_SIZE_1_2 STARLING_FIELD_END(starling_relevance_index_v1, rank)
#define STARLING_MODULE_ENTRY_SIZE_1_7 STARLING_FIELD_END(starling_module_entry, get_factory)
#define STARLING_PLUGIN_FACTORY_V1_SIZE_1_7 STARLING_FIELD_END(starling_plugin_factory_v1, descriptor)
#define STARLING_SESSION_HISTORY_V1_SIZE_1_8 STARLING_FIELD_END(starling_session_history_v1, read)
#define STARLING_RELEVANCE_FIRST_PASS_V1_SIZE_1_10 STARLING_FIELD_END(starling_relevance_first_pass_v1, rank)

/* What the host hands a plugin. */
#define STARLING_HOST_SIZE_1_0 STARLING_FIELD_END(starling_host, get_extension)
#define STARLING_HOST_CACHE_V1_SIZE_1_1 STARLING_FIELD_END(starling_host_cache_v1, directory)
#define STARLING_HOST_SIMILARITY_V1_SIZE_1_5 STARLING_FIELD_END(starling_host_similarity_v1, text)
#define STARLING_MEMORY_VIEW_SIZE_1_0 STARLING_FIELD_END(starling_memory_view, flags)
#define STARLING_MEMORY_BATCH_SIZE_1_0 STARLING_FIELD_END(starling_memory_batch, items)
#define STARLING_COLLECTION_SIZE_1_2 STARLING_FIELD_END(starling_collection, version)

#endif /* STARLING_SDK_ABI_LAYOUT_H */
