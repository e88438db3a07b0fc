// A GStreamer buffer pool over memory Lamina lends it (the overlay plane's dumb buffers), so
// `videoconvert` writes each frame straight into memory the plane scans out (decision 148).
// The pool is a subclass of GstBufferPool registered at run time: GStreamer is opened with
// dlopen, so its class and instance sizes come from g_type_query and only the order of
// GstBufferPoolClass's virtual functions (ABI-stable in GStreamer 1.x) is written here.
#include "lamina_gstreamer.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t type; int refcount; int lockstate; unsigned flags;
    void *copy, *dispose, *free; unsigned priv_uint; void *priv_pointer;
} MiniObject;
typedef struct { MiniObject mini_object; void *pool; } Buffer;
typedef struct { MiniObject mini_object; int type; } Query;
typedef struct { int type; unsigned long id; void *data; } PadProbeInfo;
typedef struct { size_t type; const char *name; unsigned class_size, instance_size; } TypeQuery;
typedef struct {
    uint16_t class_size; void *base_init, *base_finalize, *class_init, *class_finalize; const void *class_data;
    uint16_t instance_size, n_preallocs; void *instance_init; const void *value_table;
} TypeInfo;

enum { QUERY_ALLOCATION = 35846, PROBE_QUERY_DOWNSTREAM = 1 << 9, PROBE_PUSH = 1 << 12, PROBE_OK = 1,
       FLOW_OK = 0, FLOW_ERROR = -5, VIDEO_FORMAT_BGRA = 12 };
/// Where GstVideoMeta's first stride is: after its GstMeta (16), buffer (8), flags, format, id,
/// width, height, n_planes (4 each) and offset[4] (8 each).
enum { VIDEO_META_STRIDE_OFFSET = 80 };
/// GstBufferPoolClass's virtual functions after its GstObjectClass: get_options is the first,
/// alloc_buffer the sixth.
enum { GET_OPTIONS_SLOT = 0, ALLOC_BUFFER_SLOT = 5 };

static struct {
    size_t (*buffer_pool_get_type)(void);
    size_t (*object_get_type)(void);
    void (*type_query)(size_t, TypeQuery *);
    size_t (*type_register_static)(size_t, const char *, const TypeInfo *, int);
    int (*type_check_instance_is_a)(void *, size_t);
    void *(*object_new)(size_t, const char *, ...);
    void (*object_weak_ref)(void *, void (*)(void *, void *), void *);
    void *(*object_ref_sink)(void *);
    void *(*object_ref)(void *);
    void (*object_unref)(void *);
    Buffer *(*buffer_new_wrapped_full)(int, void *, size_t, size_t, size_t, void *, void (*)(void *));
    void *(*buffer_add_video_meta_full)(Buffer *, int, int, unsigned, unsigned, unsigned, const size_t *, const int *);
    size_t (*video_meta_api_get_type)(void);
    void *(*buffer_pool_get_config)(void *);
    int (*buffer_pool_config_get_params)(void *, void **, unsigned *, unsigned *, unsigned *);
    void (*structure_free)(void *);
    void (*query_parse_allocation)(void *, void **, int *);
    void (*query_add_allocation_pool)(void *, void *, unsigned, unsigned, unsigned);
    void (*query_add_allocation_meta)(void *, size_t, const void *);
    void *(*caps_get_structure)(const void *, unsigned);
    int (*structure_get_int)(const void *, const char *, int *);
    void *(*element_get_static_pad)(void *, const char *);
    unsigned long (*pad_add_probe)(void *, int, void *, void *, void (*)(void *));
    int (*pad_push_event)(void *, void *);
    void *(*event_new_reconfigure)(void);
    Buffer *(*sample_get_buffer)(void *);
    void *(*buffer_get_meta)(Buffer *, size_t);
} g;

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static size_t pool_type;
/// Where a pool's own data sits in its instance: after its GstBufferPool.
static size_t data_offset;

/// The buffers a pool lends out, shared by the pool and every GstBuffer made over them: freed
/// (and `release` called) when the last of them is gone.
typedef struct {
    atomic_int references;
    int width, height, count;
    void (*release)(void *);
    void *context;
    atomic_int *lent;                       // per buffer: 1 while a GstBuffer is made over it
    lamina_scanout_buffer buffers[];
} Lending;

/// What a GstBuffer's memory calls back when it is freed: its buffer is free to lend again.
typedef struct { Lending *lending; int index; } Loan;

static void lending_unref(Lending *lending) {
    if (atomic_fetch_sub(&lending->references, 1) != 1) return;
    if (lending->release) lending->release(lending->context);
    free(lending->lent);
    free(lending);
}

static Lending **lending_of(void *pool) { return (Lending **)((char *)pool + data_offset); }

static void loan_returned(void *data) {
    Loan *loan = data;
    atomic_store(&loan->lending->lent[loan->index], 0);
    lending_unref(loan->lending);
    free(loan);
}

/// GstBufferPool's alloc_buffer: a GstBuffer over the first buffer not lent, as long as the
/// pool's configured size, with a GstVideoMeta giving its pitch.
static int pool_alloc_buffer(void *pool, Buffer **out, void *params) {
    (void)params;
    Lending *lending = *lending_of(pool);
    if (!lending) return FLOW_ERROR;
    unsigned size = 0;
    void *config = g.buffer_pool_get_config(pool);
    if (config) {
        g.buffer_pool_config_get_params(config, NULL, &size, NULL, NULL);
        g.structure_free(config);
    }
    for (int index = 0; index < lending->count; index++) {
        lamina_scanout_buffer *buffer = &lending->buffers[index];
        if (size == 0 || size > buffer->size) return FLOW_ERROR;
        int free_slot = 0;
        if (!atomic_compare_exchange_strong(&lending->lent[index], &free_slot, 1)) continue;
        Loan *loan = malloc(sizeof *loan);
        if (!loan) { atomic_store(&lending->lent[index], 0); return FLOW_ERROR; }
        loan->lending = lending;
        loan->index = index;
        atomic_fetch_add(&lending->references, 1);
        Buffer *made = g.buffer_new_wrapped_full(0, buffer->data, buffer->size, 0, size, loan, loan_returned);
        if (!made) { loan_returned(loan); return FLOW_ERROR; }
        size_t offsets[4] = {0};
        int strides[4] = {buffer->pitch};
        g.buffer_add_video_meta_full(made, 0, VIDEO_FORMAT_BGRA, (unsigned)lending->width, (unsigned)lending->height, 1,
                                     offsets, strides);
        *out = made;
        return FLOW_OK;
    }
    return FLOW_ERROR;          // every buffer lent: the pool's maximum keeps this from happening
}

static const char **pool_get_options(void *pool) {
    (void)pool;
    static const char *options[] = {"GstBufferPoolOptionVideoMeta", NULL};
    return options;
}

static void pool_class_init(void *klass, void *data) {
    (void)data;
    TypeQuery object;
    g.type_query(g.object_get_type(), &object);
    void **slots = (void **)((char *)klass + object.class_size);
    slots[GET_OPTIONS_SLOT] = (void *)pool_get_options;
    slots[ALLOC_BUFFER_SLOT] = (void *)pool_alloc_buffer;
}

static int setup_failed;

static void *find(const char *name) {
    void *found = dlsym(RTLD_DEFAULT, name);
    if (!found) setup_failed = 1;
    return found;
}

static void setup(void) {
    // libgstvideo is not among the libraries lamina_gst_load opens: videoconvert's plugin
    // brings it, and it is opened here in case no plugin has yet.
    if (!dlopen("libgstvideo-1.0.so.0", RTLD_NOW | RTLD_GLOBAL)) { setup_failed = 1; return; }
    *(void **)&g.buffer_pool_get_type = find("gst_buffer_pool_get_type");
    *(void **)&g.object_get_type = find("gst_object_get_type");
    *(void **)&g.type_query = find("g_type_query");
    *(void **)&g.type_register_static = find("g_type_register_static");
    *(void **)&g.type_check_instance_is_a = find("g_type_check_instance_is_a");
    *(void **)&g.object_new = find("g_object_new");
    *(void **)&g.object_weak_ref = find("g_object_weak_ref");
    *(void **)&g.object_ref_sink = find("gst_object_ref_sink");
    *(void **)&g.object_ref = find("gst_object_ref");
    *(void **)&g.object_unref = find("gst_object_unref");
    *(void **)&g.buffer_new_wrapped_full = find("gst_buffer_new_wrapped_full");
    *(void **)&g.buffer_add_video_meta_full = find("gst_buffer_add_video_meta_full");
    *(void **)&g.video_meta_api_get_type = find("gst_video_meta_api_get_type");
    *(void **)&g.buffer_pool_get_config = find("gst_buffer_pool_get_config");
    *(void **)&g.buffer_pool_config_get_params = find("gst_buffer_pool_config_get_params");
    *(void **)&g.structure_free = find("gst_structure_free");
    *(void **)&g.query_parse_allocation = find("gst_query_parse_allocation");
    *(void **)&g.query_add_allocation_pool = find("gst_query_add_allocation_pool");
    *(void **)&g.query_add_allocation_meta = find("gst_query_add_allocation_meta");
    *(void **)&g.caps_get_structure = find("gst_caps_get_structure");
    *(void **)&g.structure_get_int = find("gst_structure_get_int");
    *(void **)&g.element_get_static_pad = find("gst_element_get_static_pad");
    *(void **)&g.pad_add_probe = find("gst_pad_add_probe");
    *(void **)&g.pad_push_event = find("gst_pad_push_event");
    *(void **)&g.event_new_reconfigure = find("gst_event_new_reconfigure");
    *(void **)&g.sample_get_buffer = find("gst_sample_get_buffer");
    *(void **)&g.buffer_get_meta = find("gst_buffer_get_meta");
    if (setup_failed) return;
    TypeQuery parent;
    g.type_query(g.buffer_pool_get_type(), &parent);
    if (parent.instance_size == 0 || parent.class_size == 0) { setup_failed = 1; return; }
    data_offset = (parent.instance_size + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
    TypeInfo info = {0};
    info.class_size = (uint16_t)parent.class_size;
    info.class_init = (void *)pool_class_init;
    info.instance_size = (uint16_t)(data_offset + sizeof(Lending *));
    pool_type = g.type_register_static(g.buffer_pool_get_type(), "LaminaScanoutPool", &info, 0);
    if (!pool_type) setup_failed = 1;
}

static int ready(void) {
    if (lamina_gst_load(NULL, 0) != 0) return 0;
    pthread_once(&setup_once, setup);
    return !setup_failed;
}

/// The pool is gone: its share of the lending goes (GstBuffers made over it may live on).
static void pool_gone(void *data, void *pool) {
    (void)pool;
    lending_unref(data);
}

void *lamina_gst_scanout_pool_new(const lamina_scanout_buffer *buffers, int count, int width, int height,
                                  void (*release)(void *), void *context) {
    if (!ready() || count <= 0 || width <= 0 || height <= 0) return NULL;
    for (int i = 0; i < count; i++)
        if (!buffers[i].data || buffers[i].pitch < width * 4 || buffers[i].pitch != buffers[0].pitch
            || buffers[i].size < (size_t)buffers[i].pitch * (size_t)height || ((uintptr_t)buffers[i].data & 3) != 0)
            return NULL;
    Lending *lending = malloc(sizeof *lending + (size_t)count * sizeof *buffers);
    atomic_int *lent = calloc((size_t)count, sizeof *lent);
    if (!lending || !lent) { free(lending); free(lent); return NULL; }
    atomic_init(&lending->references, 1);
    lending->width = width;
    lending->height = height;
    lending->count = count;
    lending->release = release;
    lending->context = context;
    lending->lent = lent;
    memcpy(lending->buffers, buffers, (size_t)count * sizeof *buffers);
    void *pool = g.object_new(pool_type, NULL);
    if (!pool) {
        lending->release = NULL;                // the caller keeps what it would have released
        lending_unref(lending);
        return NULL;
    }
    g.object_ref_sink(pool);
    *lending_of(pool) = lending;
    g.object_weak_ref(pool, pool_gone, lending);
    return pool;
}

void lamina_gst_scanout_pool_unref(void *pool) { if (pool) g.object_unref(pool); }

int lamina_gst_is_scanout_pool(void *pool) {
    return pool && pool_type && g.type_check_instance_is_a(pool, pool_type);
}

/// The pool a sink offers upstream, read by the probe on GStreamer's threads. It belongs to
/// the probe (freed with the sink's pad), so it holds the pad unreferenced.
typedef struct {
    pthread_mutex_t lock;
    void *pool;
    void *sinkpad;
} Offer;

/// Answers an allocation query at the sink with the pool on offer, when its frames are the
/// pool's size: `videoconvert` takes the first pool it is offered.
static int offer_probe(void *pad, PadProbeInfo *info, void *data) {
    (void)pad;
    Query *query = info->data;
    if (!query || query->type != QUERY_ALLOCATION) return PROBE_OK;
    Offer *offer = data;
    pthread_mutex_lock(&offer->lock);
    void *pool = offer->pool ? g.object_ref(offer->pool) : NULL;
    pthread_mutex_unlock(&offer->lock);
    if (!pool) return PROBE_OK;
    Lending *lending = *lending_of(pool);
    void *caps = NULL;
    int need_pool = 0, width = 0, height = 0;
    g.query_parse_allocation(query, &caps, &need_pool);
    void *structure = caps ? g.caps_get_structure(caps, 0) : NULL;
    if (structure && g.structure_get_int(structure, "width", &width) && g.structure_get_int(structure, "height", &height)
        && width == lending->width && height == lending->height) {
        unsigned size = (unsigned)lending->buffers[0].pitch * (unsigned)height;   // the pitch's padding too
        g.query_add_allocation_pool(query, pool, size, 2, (unsigned)lending->count);
        g.query_add_allocation_meta(query, g.video_meta_api_get_type(), NULL);
    }
    g.object_unref(pool);
    return PROBE_OK;
}

static void offer_free(void *data) {
    Offer *offer = data;
    if (offer->pool) g.object_unref(offer->pool);
    pthread_mutex_destroy(&offer->lock);
    free(offer);
}

void *lamina_gst_scanout_offer_new(void *sink) {
    if (!ready() || !sink) return NULL;
    Offer *offer = calloc(1, sizeof *offer);
    if (!offer) return NULL;
    pthread_mutex_init(&offer->lock, NULL);
    void *pad = g.element_get_static_pad(sink, "sink");
    if (!pad) { offer_free(offer); return NULL; }
    offer->sinkpad = pad;
    unsigned long probe = g.pad_add_probe(pad, PROBE_QUERY_DOWNSTREAM | PROBE_PUSH, (void *)offer_probe, offer, offer_free);
    g.object_unref(pad);                        // the sink keeps its pad, and the pad the probe
    if (!probe) { offer_free(offer); return NULL; }
    return offer;
}

void lamina_gst_scanout_offer_set(void *handle, void *pool) {
    Offer *offer = handle;
    if (!offer) return;
    pthread_mutex_lock(&offer->lock);
    void *old = offer->pool;
    offer->pool = pool ? g.object_ref(pool) : NULL;
    pthread_mutex_unlock(&offer->lock);
    if (old) g.object_unref(old);
    g.pad_push_event(offer->sinkpad, g.event_new_reconfigure());    // upstream asks for a pool again
}

int32_t lamina_gst_sample_scanout_pitch(void *sample) {
    if (!ready() || !sample) return 0;
    Buffer *buffer = g.sample_get_buffer(sample);
    if (!buffer || !lamina_gst_is_scanout_pool(buffer->pool)) return 0;
    char *meta = g.buffer_get_meta(buffer, g.video_meta_api_get_type());
    return meta ? *(int32_t *)(meta + VIDEO_META_STRIDE_OFFSET) : 0;
}
