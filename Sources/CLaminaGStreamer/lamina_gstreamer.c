// GStreamer, opened with dlopen when a scene first plays a video, and the pipeline's calls:
// samples, errors, seeks, the decoders on offer, the clock. Building Lamina needs no GStreamer
// headers and running it without video needs no GStreamer at all (gstreamer_internal.h).
// A video's sound is in lamina_gstreamer_sound.c.
#include "lamina_gstreamer.h"
#include "gstreamer_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

GstFunctions gst;

/// GstElementFactoryListType's decoder and video-media bits.
static const uint64_t FACTORY_TYPE_DECODER = 1ull << 0, FACTORY_TYPE_MEDIA_VIDEO = 1ull << 49;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];
static int loaded = -1;

static void *open_library(const char *name) {
    void *handle = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!handle && !load_error[0]) snprintf(load_error, sizeof load_error, "%s", dlerror());
    return handle;
}

static void *symbol(void *library, const char *name) {
    void *found = library ? dlsym(library, name) : NULL;
    if (!found && !load_error[0]) snprintf(load_error, sizeof load_error, "%s has no %s", library ? "the library" : "no library", name);
    return found;
}

static void load(void) {
    void *core = open_library("libgstreamer-1.0.so.0");
    void *app = open_library("libgstapp-1.0.so.0");
    void *glib = open_library("libglib-2.0.so.0");
    void *gobject = open_library("libgobject-2.0.so.0");
    if (load_error[0]) return;
    *(void **)&gst.init_check = symbol(core, "gst_init_check");
    *(void **)&gst.parse_launch = symbol(core, "gst_parse_launch");
    *(void **)&gst.bin_get_by_name = symbol(core, "gst_bin_get_by_name");
    *(void **)&gst.element_set_state = symbol(core, "gst_element_set_state");
    *(void **)&gst.object_unref = symbol(core, "gst_object_unref");
    *(void **)&gst.app_sink_try_pull_sample = symbol(app, "gst_app_sink_try_pull_sample");
    *(void **)&gst.app_sink_is_eos = symbol(app, "gst_app_sink_is_eos");
    *(void **)&gst.sample_get_buffer = symbol(core, "gst_sample_get_buffer");
    *(void **)&gst.sample_get_caps = symbol(core, "gst_sample_get_caps");
    *(void **)&gst.caps_get_structure = symbol(core, "gst_caps_get_structure");
    *(void **)&gst.structure_get_int = symbol(core, "gst_structure_get_int");
    *(void **)&gst.buffer_map = symbol(core, "gst_buffer_map");
    *(void **)&gst.buffer_unmap = symbol(core, "gst_buffer_unmap");
    *(void **)&gst.mini_object_unref = symbol(core, "gst_mini_object_unref");
    *(void **)&gst.mini_object_ref = symbol(core, "gst_mini_object_ref");
    *(void **)&gst.buffer_pool_get_config = symbol(core, "gst_buffer_pool_get_config");
    *(void **)&gst.buffer_pool_config_get_params = symbol(core, "gst_buffer_pool_config_get_params");
    *(void **)&gst.structure_free = symbol(core, "gst_structure_free");
    *(void **)&gst.element_get_bus = symbol(core, "gst_element_get_bus");
    *(void **)&gst.bus_pop_filtered = symbol(core, "gst_bus_pop_filtered");
    *(void **)&gst.message_parse_error = symbol(core, "gst_message_parse_error");
    *(void **)&gst.element_seek = symbol(core, "gst_element_seek");
    *(void **)&gst.bin_iterate_recurse = symbol(core, "gst_bin_iterate_recurse");
    *(void **)&gst.iterator_next = symbol(core, "gst_iterator_next");
    *(void **)&gst.iterator_free = symbol(core, "gst_iterator_free");
    *(void **)&gst.element_get_factory = symbol(core, "gst_element_get_factory");
    *(void **)&gst.factory_get_metadata = symbol(core, "gst_element_factory_get_metadata");
    *(void **)&gst.object_get_name = symbol(core, "gst_object_get_name");
    *(void **)&gst.factory_list_get_elements = symbol(core, "gst_element_factory_list_get_elements");
    *(void **)&gst.feature_list_free = symbol(core, "gst_plugin_feature_list_free");
    *(void **)&gst.feature_get_rank = symbol(core, "gst_plugin_feature_get_rank");
    *(void **)&gst.error_free = symbol(glib, "g_error_free");
    *(void **)&gst.value_unset = symbol(gobject, "g_value_unset");
    *(void **)&gst.value_get_object = symbol(gobject, "g_value_get_object");
    *(void **)&gst.free = symbol(glib, "g_free");
    *(void **)&gst.app_sink_try_pull_preroll = symbol(app, "gst_app_sink_try_pull_preroll");
    *(void **)&gst.pipeline_use_clock = symbol(core, "gst_pipeline_use_clock");
    *(void **)&gst.system_clock_obtain = symbol(core, "gst_system_clock_obtain");
    *(void **)&gst.element_set_start_time = symbol(core, "gst_element_set_start_time");
    *(void **)&gst.element_set_base_time = symbol(core, "gst_element_set_base_time");
    *(void **)&gst.element_get_base_time = symbol(core, "gst_element_get_base_time");
    *(void **)&gst.parse_bin_from_description = symbol(core, "gst_parse_bin_from_description");
    *(void **)&gst.bin_add = symbol(core, "gst_bin_add");
    *(void **)&gst.bin_remove = symbol(core, "gst_bin_remove");
    *(void **)&gst.element_sync_state_with_parent = symbol(core, "gst_element_sync_state_with_parent");
    *(void **)&gst.element_get_static_pad = symbol(core, "gst_element_get_static_pad");
    *(void **)&gst.pad_link = symbol(core, "gst_pad_link");
    *(void **)&gst.pad_unlink = symbol(core, "gst_pad_unlink");
    *(void **)&gst.pad_get_current_caps = symbol(core, "gst_pad_get_current_caps");
    *(void **)&gst.structure_get_name = symbol(core, "gst_structure_get_name");
    *(void **)&gst.object_ref = symbol(core, "gst_object_ref");
    *(void **)&gst.object_has_as_ancestor = symbol(core, "gst_object_has_as_ancestor");
    *(void **)&gst.signal_connect_data = symbol(gobject, "g_signal_connect_data");
    *(void **)&gst.signal_handler_disconnect = symbol(gobject, "g_signal_handler_disconnect");
    *(void **)&gst.object_set = symbol(gobject, "g_object_set");
    *(void **)&gst.bus_post = symbol(core, "gst_bus_post");
    *(void **)&gst.object_ref_sink = symbol(core, "gst_object_ref_sink");
    *(void **)&gst.pad_set_chain_function_full = symbol(core, "gst_pad_set_chain_function_full");
    *(void **)&gst.pad_set_chain_list_function_full = symbol(core, "gst_pad_set_chain_list_function_full");
    *(void **)&gst.proxy_pad_chain_default = symbol(core, "gst_proxy_pad_chain_default");
    *(void **)&gst.proxy_pad_chain_list_default = symbol(core, "gst_proxy_pad_chain_list_default");
    *(void **)&gst.pad_add_probe = symbol(core, "gst_pad_add_probe");
    *(void **)&gst.pad_get_last_flow_return = symbol(core, "gst_pad_get_last_flow_return");
    *(void **)&gst.object_get_qdata = symbol(gobject, "g_object_get_qdata");
    *(void **)&gst.object_set_qdata_full = symbol(gobject, "g_object_set_qdata_full");
    *(void **)&gst.quark_from_static_string = symbol(glib, "g_quark_from_static_string");
    if (load_error[0]) return;
    GError *error = NULL;
    if (!gst.init_check(NULL, NULL, &error)) {
        snprintf(load_error, sizeof load_error, "gst_init: %s", error && error->message ? error->message : "failed");
        if (error) gst.error_free(error);
        return;
    }
    loaded = 0;
}

int lamina_gst_load(char *error, size_t error_size) {
    pthread_once(&load_once, load);
    if (loaded != 0 && error && error_size) snprintf(error, error_size, "%s", load_error[0] ? load_error : "GStreamer did not load");
    return loaded;
}

void *lamina_gst_parse_launch(const char *description, char *error, size_t error_size) {
    GError *failure = NULL;
    void *pipeline = gst.parse_launch(description, &failure);
    if (failure) {
        // A description GStreamer could partly build still reports what it could not do.
        if (error && error_size) snprintf(error, error_size, "%s", failure->message ? failure->message : "cannot be built");
        gst.error_free(failure);
        if (pipeline) gst.object_unref(pipeline);
        return NULL;
    }
    return pipeline;
}

void *lamina_gst_bin_get_by_name(void *bin, const char *name) { return gst.bin_get_by_name(bin, name); }

int lamina_gst_element_set_state(void *element, int state) { return gst.element_set_state(element, state); }

void lamina_gst_object_unref(void *object) { gst.object_unref(object); }

void *lamina_gst_app_sink_try_pull_sample(void *sink, uint64_t timeout_ns) {
    return gst.app_sink_try_pull_sample(sink, timeout_ns);
}

int lamina_gst_app_sink_is_eos(void *sink) { return gst.app_sink_is_eos(sink) ? 1 : 0; }

int lamina_gst_sample_describe(void *sample, int32_t *width, int32_t *height, int32_t *stride,
                               uint64_t *pts_ns, uint64_t *duration_ns) {
    GstBuffer *buffer = gst.sample_get_buffer(sample);
    void *caps = gst.sample_get_caps(sample);
    void *structure = caps ? gst.caps_get_structure(caps, 0) : NULL;
    int w = 0, h = 0;
    if (!buffer || !structure || !gst.structure_get_int(structure, "width", &w) ||
        !gst.structure_get_int(structure, "height", &h) || w <= 0 || h <= 0 || w > 16384 || h > 16384) return -1;
    *width = w;
    *height = h;
    *stride = w * 4;       // BGRA, four bytes a pixel: GStreamer's default stride is the row itself
    *pts_ns = buffer->pts;
    *duration_ns = buffer->duration;
    return 0;
}

int lamina_gst_sample_copy_rows(void *sample, int32_t stride, int32_t row_bytes, int32_t height,
                                uint8_t *destination, int32_t destination_stride) {
    GstBuffer *buffer = gst.sample_get_buffer(sample);
    GstMapInfo map;
    if (!buffer || stride < row_bytes || height <= 0 || !gst.buffer_map(buffer, &map, MAP_READ)) return -1;
    int status = -1;
    if (map.size >= (size_t)stride * (size_t)(height - 1) + (size_t)row_bytes) {
        for (int32_t row = 0; row < height; row++)
            memcpy(destination + (size_t)row * (size_t)destination_stride, map.data + (size_t)row * (size_t)stride, (size_t)row_bytes);
        status = 0;
    }
    gst.buffer_unmap(buffer, &map);
    return status;
}

void lamina_gst_sample_unref(void *sample) { gst.mini_object_unref(sample); }

/// A sample's buffer kept mapped. The buffer is held, not the sample: appsink hands out
/// its own sample again with new caps after a flush (a loop's seek), and a sample held
/// elsewhere is not writable (GStreamer-CRITICAL `gst_sample_set_caps`).
typedef struct { GstBuffer *buffer; GstMapInfo map; } HeldSample;

/// The fewest buffers a pool must allow (0: any number) for its frames to be held.
enum { HOLDABLE_POOL_BUFFERS = 32 };

void *lamina_gst_sample_hold(void *sample, size_t bytes, const uint8_t **data) {
    GstBuffer *buffer = gst.sample_get_buffer(sample);
    if (!buffer) return NULL;
    if (buffer->pool && !lamina_gst_is_scanout_pool(buffer->pool)) {   // a scanout pool lends enough
        void *config = gst.buffer_pool_get_config(buffer->pool);
        unsigned size = 0, min = 0, max = 0;
        int known = config && gst.buffer_pool_config_get_params(config, NULL, &size, &min, &max);
        if (config) gst.structure_free(config);
        if (!known || (max != 0 && max < HOLDABLE_POOL_BUFFERS)) return NULL;
    }
    HeldSample *held = malloc(sizeof *held);
    if (!held) return NULL;
    if (!gst.buffer_map(buffer, &held->map, MAP_READ)) {
        free(held);
        return NULL;
    }
    if (held->map.size < bytes || ((uintptr_t)held->map.data & 3) != 0) {
        gst.buffer_unmap(buffer, &held->map);
        free(held);
        return NULL;
    }
    held->buffer = gst.mini_object_ref(buffer);
    *data = held->map.data;
    return held;
}

void lamina_gst_sample_release(void *handle) {
    HeldSample *held = handle;
    if (!held) return;
    gst.buffer_unmap(held->buffer, &held->map);
    gst.mini_object_unref(held->buffer);
    free(held);
}

int lamina_gst_pop_error(void *pipeline, char *message, size_t message_size) {
    return lamina_gst_pop_error_sorted(pipeline, NULL, message, message_size) ? 1 : 0;
}

int lamina_gst_pop_error_sorted(void *pipeline, void *sound, char *message, size_t message_size) {
    void *bus = gst.element_get_bus(pipeline);
    if (!bus) return 0;
    GstMessage *found = gst.bus_pop_filtered(bus, MESSAGE_ERROR);
    gst.object_unref(bus);
    if (!found) return 0;
    int kind = sound && lamina_gst_sound_contains(sound, found->src) ? 2 : 1;
    GError *error = NULL;
    char *debug = NULL;
    gst.message_parse_error(found, &error, &debug);
    snprintf(message, message_size, "%s", error && error->message ? error->message : "an error without a message");
    if (error) gst.error_free(error);
    if (debug) gst.free(debug);
    gst.mini_object_unref(found);
    return kind;
}

int lamina_gst_seek(void *pipeline, uint64_t position_ns, double rate, int accurate) {
    int flags = SEEK_FLAG_FLUSH | (accurate ? SEEK_FLAG_ACCURATE : 0);
    return gst.element_seek(pipeline, rate, FORMAT_TIME, flags, SEEK_TYPE_SET, (int64_t)position_ns, SEEK_TYPE_NONE, -1) ? 1 : 0;
}

int lamina_gst_video_decoder_name(void *bin, char *name, size_t name_size) {
    void *iterator = gst.bin_iterate_recurse(bin);
    if (!iterator) return 0;
    GValue item = {0};
    int found = 0;
    while (!found && gst.iterator_next(iterator, &item) == ITERATOR_OK) {
        void *factory = gst.element_get_factory(gst.value_get_object(&item));
        const char *klass = factory ? gst.factory_get_metadata(factory, "klass") : NULL;
        if (klass && strstr(klass, "Decoder") && strstr(klass, "Video")) {
            char *factory_name = gst.object_get_name(factory);   // a factory's name is its feature's
            snprintf(name, name_size, "%s", factory_name ? factory_name : "?");
            gst.free(factory_name);
            found = 1;
        }
        gst.value_unset(&item);
    }
    gst.iterator_free(iterator);
    return found;
}

typedef struct { unsigned rank; int index; void *factory; } RankedFactory;

/// Higher rank first; among equal ranks the registry's order (by name).
static int higher_rank_first(const void *a, const void *b) {
    const RankedFactory *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? 1 : -1;
    return x->index - y->index;
}

int lamina_gst_video_decoders(char *out, size_t out_size) {
    enum { MOST = 512 };
    RankedFactory ranked[MOST];
    GList *factories = gst.factory_list_get_elements(FACTORY_TYPE_DECODER | FACTORY_TYPE_MEDIA_VIDEO, RANK_MARGINAL);
    int count = 0;
    for (GList *item = factories; item && count < MOST; item = item->next) {
        const char *klass = gst.factory_get_metadata(item->data, "klass");
        if (!klass || !strstr(klass, "Decoder") || !strstr(klass, "Video")) continue;   // as the decoder in a pipeline is found
        ranked[count] = (RankedFactory){ gst.feature_get_rank(item->data), count, item->data };
        count++;
    }
    qsort(ranked, (size_t)count, sizeof ranked[0], higher_rank_first);
    size_t used = 0;
    if (out_size) out[0] = 0;
    for (int i = 0; i < count && used + 1 < out_size; i++) {
        const char *klass = gst.factory_get_metadata(ranked[i].factory, "klass");
        char *name = gst.object_get_name(ranked[i].factory);
        int written = snprintf(out + used, out_size - used, "%s\t%u\t%s\n", name ? name : "?", ranked[i].rank, klass ? klass : "");
        if (written > 0) used += (size_t)written < out_size - used ? (size_t)written : out_size - used - 1;
        gst.free(name);
    }
    gst.feature_list_free(factories);
    return count;
}


// MARK: - Sound

void lamina_gst_use_system_clock(void *pipeline) {
    void *clock = gst.system_clock_obtain();      // CLOCK_MONOTONIC unless told otherwise
    gst.pipeline_use_clock(pipeline, clock);
    gst.object_unref(clock);
    gst.element_set_start_time(pipeline, UINT64_MAX);   // GST_CLOCK_TIME_NONE: the base time is the player's
}

void lamina_gst_set_base_time(void *pipeline, uint64_t base_time_ns) {
    gst.element_set_base_time(pipeline, base_time_ns);
    void *iterator = gst.bin_iterate_recurse(pipeline);
    if (!iterator) return;
    GValue item = {0};
    while (gst.iterator_next(iterator, &item) == ITERATOR_OK) {
        gst.element_set_base_time(gst.value_get_object(&item), base_time_ns);
        gst.value_unset(&item);
    }
    gst.iterator_free(iterator);
}

void *lamina_gst_app_sink_try_pull_preroll(void *sink, uint64_t timeout_ns) {
    return gst.app_sink_try_pull_preroll(sink, timeout_ns);
}
