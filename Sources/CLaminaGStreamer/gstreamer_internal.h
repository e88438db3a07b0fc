// What the GStreamer shim's files share: the few GStreamer and GLib types Lamina touches,
// declared from their public, ABI-stable layouts (GStreamer 1.x keeps them fixed), and the
// table of functions `lamina_gstreamer.c` looks up with dlsym when a scene first plays a video.
// Not part of the module's interface (include/ holds that).
#ifndef LAMINA_GSTREAMER_INTERNAL_H
#define LAMINA_GSTREAMER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct { uint32_t domain; int code; char *message; } GError;
typedef struct {
    size_t type; int refcount; int lockstate; unsigned flags;
    void *copy, *dispose, *free; unsigned priv_uint; void *priv_pointer;
} GstMiniObject;
typedef struct {
    GstMiniObject mini_object; void *pool;
    uint64_t pts, dts, duration, offset, offset_end;
} GstBuffer;
typedef struct {
    void *memory; int flags; uint8_t *data; size_t size, maxsize;
    void *user_data[4]; void *reserved[4];
} GstMapInfo;

/// GstMessage's public head: what it is, when, and which object posted it.
typedef struct {
    GstMiniObject mini_object; int type; uint64_t timestamp; void *src; uint32_t seqnum;
} GstMessage;

/// GList: a doubly linked list node.
typedef struct GList { void *data; struct GList *next, *prev; } GList;

/// GValue: a type and two words of data.
typedef struct { size_t type; uint64_t data[2]; } GValue;

enum { MAP_READ = 1, MESSAGE_ERROR = 1 << 1, FORMAT_TIME = 3, SEEK_FLAG_FLUSH = 1, SEEK_FLAG_ACCURATE = 2,
       SEEK_TYPE_NONE = 0, SEEK_TYPE_SET = 1, ITERATOR_OK = 1, RANK_MARGINAL = 64 };

/// GStreamer's, GLib's and GObject's functions, found by `load` in lamina_gstreamer.c.
typedef struct {
    int (*init_check)(int *, char ***, GError **);
    void *(*parse_launch)(const char *, GError **);
    void *(*bin_get_by_name)(void *, const char *);
    int (*element_set_state)(void *, int);
    void (*object_unref)(void *);
    void *(*app_sink_try_pull_sample)(void *, uint64_t);
    int (*app_sink_is_eos)(void *);
    GstBuffer *(*sample_get_buffer)(void *);
    void *(*sample_get_caps)(void *);
    void *(*caps_get_structure)(const void *, unsigned);
    int (*structure_get_int)(const void *, const char *, int *);
    int (*buffer_map)(GstBuffer *, GstMapInfo *, int);
    void (*buffer_unmap)(GstBuffer *, GstMapInfo *);
    void (*mini_object_unref)(void *);
    void *(*mini_object_ref)(void *);
    void *(*buffer_pool_get_config)(void *);
    int (*buffer_pool_config_get_params)(void *, void **, unsigned *, unsigned *, unsigned *);
    void (*structure_free)(void *);
    void *(*element_get_bus)(void *);
    void *(*bus_pop_filtered)(void *, int);
    void (*message_parse_error)(void *, GError **, char **);
    int (*element_seek)(void *, double, int, int, int, int64_t, int, int64_t);
    void *(*bin_iterate_recurse)(void *);
    int (*iterator_next)(void *, GValue *);
    void (*iterator_free)(void *);
    void *(*value_get_object)(const GValue *);
    void (*value_unset)(GValue *);
    void *(*element_get_factory)(void *);
    const char *(*factory_get_metadata)(void *, const char *);
    char *(*object_get_name)(void *);
    void *(*factory_list_get_elements)(uint64_t, int);
    void (*feature_list_free)(void *);
    unsigned (*feature_get_rank)(void *);
    void (*error_free)(GError *);
    void (*free)(void *);
    void *(*app_sink_try_pull_preroll)(void *, uint64_t);
    void (*pipeline_use_clock)(void *, void *);
    void *(*system_clock_obtain)(void);
    void (*element_set_start_time)(void *, uint64_t);
    void (*element_set_base_time)(void *, uint64_t);
    uint64_t (*element_get_base_time)(void *);
    void *(*parse_bin_from_description)(const char *, int, GError **);
    int (*bin_add)(void *, void *);
    int (*bin_remove)(void *, void *);
    int (*element_sync_state_with_parent)(void *);
    void *(*element_get_static_pad)(void *, const char *);
    int (*pad_link)(void *, void *);
    int (*pad_unlink)(void *, void *);
    void *(*pad_get_current_caps)(void *);
    const char *(*structure_get_name)(const void *);
    void *(*object_ref)(void *);
    int (*object_has_as_ancestor)(void *, void *);
    unsigned long (*signal_connect_data)(void *, const char *, void *, void *, void *, int);
    void (*signal_handler_disconnect)(void *, unsigned long);
    void (*object_set)(void *, const char *, ...);
    int (*bus_post)(void *, void *);
    void *(*object_ref_sink)(void *);
    void (*pad_set_chain_function_full)(void *, void *, void *, void *);
    void (*pad_set_chain_list_function_full)(void *, void *, void *, void *);
    int (*proxy_pad_chain_default)(void *, void *, void *);
    int (*proxy_pad_chain_list_default)(void *, void *, void *);
    unsigned long (*pad_add_probe)(void *, int, void *, void *, void *);
    int (*pad_get_last_flow_return)(void *);
    void *(*object_get_qdata)(void *, uint32_t);
    void (*object_set_qdata_full)(void *, uint32_t, void *, void *);
    uint32_t (*quark_from_static_string)(const char *);
} GstFunctions;

/// The functions, valid once `lamina_gst_load` has succeeded.
extern GstFunctions gst __attribute__((visibility("hidden")));

#endif
