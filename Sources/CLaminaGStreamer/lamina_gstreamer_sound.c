// A video's sound: the decoded track, and the branch to the audio device built once sound is
// asked for (decision 147), guarded so a sink failing mid-stream stops the sound, not the video.
#include "lamina_gstreamer.h"
#include "gstreamer_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// A video's sound: the decoded track once it appears, and the branch playing it once asked.
typedef struct {
    pthread_mutex_t lock;
    void *pipeline;            // borrowed: the decoder owns it and outlives this
    void *decodebin;           // a reference
    unsigned long handler;     // the pad-added watch
    void *track;               // the decoded sound's pad (a reference), once exposed
    void *branch;              // the branch (a reference), once built
    int wanted;
    double volume;
    int muted;
    char failure[256];
    char description[1024];
} Sound;

enum { STATE_NULL = 1, STATE_READY = 2, STATE_CHANGE_FAILURE = 0, PAD_LINK_OK = 0 };

/// Sets the branch's volume element from what is kept. With the lock held.
static void apply_volume(Sound *sound) {
    if (!sound->branch) return;
    void *volume = gst.bin_get_by_name(sound->branch, "lamina-volume");
    if (!volume) return;
    gst.object_set(volume, "volume", sound->volume, "mute", sound->muted, NULL);
    gst.object_unref(volume);
}

/// Takes the errors a failed branch posted off the pipeline's bus (they would stop the video),
/// the first one's text replacing `failure`'s when `replace` is set; errors from elsewhere go
/// back on the bus. With the lock held.
static void drop_branch_errors(Sound *sound, void *branch, int replace) {
    void *bus = gst.element_get_bus(sound->pipeline);
    if (!bus) return;
    enum { MOST = 64 };
    GstMessage *others[MOST];
    int kept = 0;
    GstMessage *message;
    while ((message = gst.bus_pop_filtered(bus, MESSAGE_ERROR))) {
        if (message->src == branch || gst.object_has_as_ancestor(message->src, branch)) {
            GError *error = NULL;
            char *debug = NULL;
            gst.message_parse_error(message, &error, &debug);
            if (replace) snprintf(sound->failure, sizeof sound->failure, "%s", error && error->message ? error->message : "the audio sink failed");
            replace = 0;
            if (error) gst.error_free(error);
            if (debug) gst.free(debug);
            gst.mini_object_unref(message);
        } else if (kept < MOST) {
            others[kept++] = message;
        } else {
            gst.mini_object_unref(message);
        }
    }
    for (int i = 0; i < kept; i++) gst.bus_post(bus, others[i]);
    gst.object_unref(bus);
}

enum {
    FLOW_OK = 0, FLOW_NOT_NEGOTIATED = -4,       // GstFlowReturn: this and below are fatal
    PROBE_DROP = 0, PROBE_OK = 1,                // GstPadProbeReturn
    PROBE_EVENT_DOWNSTREAM = 1 << 6, PROBE_EVENT_FLUSH = 1 << 8,
};

/// What keeps a failing sound branch from stopping the video. A sink that fails mid-stream
/// (a USB speaker pulled) returns a fatal flow, which would reach the demuxer through the
/// branch's queue and stop the whole pipeline ("Internal data stream error"). The branch's
/// input takes it instead: from its first fatal flow the branch takes in nothing more and
/// answers OK, so the demuxer goes on with the pictures; the sink's own error on the bus says
/// why, and the decoder takes the branch out (`lamina_gst_sound_detach`).
typedef struct {
    atomic_int failed;
    void *queue_output;        // the branch's queue's source pad (a reference): its last flow
} BranchGuard;

static uint32_t guard_quark;
static pthread_once_t guard_quark_once = PTHREAD_ONCE_INIT;

static void make_guard_quark(void) { guard_quark = gst.quark_from_static_string("lamina-branch-guard"); }

static void guard_free(void *data) {
    BranchGuard *guard = data;
    if (guard->queue_output) gst.object_unref(guard->queue_output);
    free(guard);
}

/// Pushes `data` (a buffer or a buffer list, which the push takes) through the ghost pad's own
/// chain function `push` into the queue: nothing once the branch failed, and a fatal flow
/// from it is taken as the failure and answered OK.
static int guarded_push(void *pad, void *parent, void *data, int (*push)(void *, void *, void *)) {
    BranchGuard *guard = gst.object_get_qdata(pad, guard_quark);
    if (!guard) return push(pad, parent, data);
    if (atomic_load(&guard->failed)) {
        gst.mini_object_unref(data);
        return FLOW_OK;
    }
    int flow = push(pad, parent, data);
    if (flow > FLOW_NOT_NEGOTIATED) return flow;
    atomic_store(&guard->failed, 1);
    return FLOW_OK;
}

/// The branch input's chain functions.
static int guarded_chain(void *pad, void *parent, void *buffer) {
    return guarded_push(pad, parent, buffer, gst.proxy_pad_chain_default);
}

static int guarded_chain_list(void *pad, void *parent, void *list) {
    return guarded_push(pad, parent, list, gst.proxy_pad_chain_list_default);
}

/// Events into a failed branch are dropped (answered as handled), so a segment or an end of
/// stream after the sink failed is not refused upstream either. A failure the queue has seen
/// but no buffer has met yet counts too.
static int guarded_event(void *pad, void *info, void *data) {
    (void)pad; (void)info;
    BranchGuard *guard = data;
    if (!atomic_load(&guard->failed) && guard->queue_output
        && gst.pad_get_last_flow_return(guard->queue_output) <= FLOW_NOT_NEGOTIATED)
        atomic_store(&guard->failed, 1);
    return atomic_load(&guard->failed) ? PROBE_DROP : PROBE_OK;
}

/// Puts the guard on the branch's input (its ghost sink pad, `input`), in front of the queue
/// named `lamina-sound-queue`. The pad owns the guard.
static void guard_branch(void *branch, void *input) {
    BranchGuard *guard = calloc(1, sizeof *guard);
    if (!guard) return;
    void *queue = gst.bin_get_by_name(branch, "lamina-sound-queue");
    if (queue) {
        guard->queue_output = gst.element_get_static_pad(queue, "src");
        gst.object_unref(queue);
    }
    pthread_once(&guard_quark_once, make_guard_quark);
    gst.object_set_qdata_full(input, guard_quark, guard, (void *)guard_free);
    gst.pad_set_chain_function_full(input, (void *)guarded_chain, NULL, NULL);
    gst.pad_set_chain_list_function_full(input, (void *)guarded_chain_list, NULL, NULL);
    gst.pad_add_probe(input, PROBE_EVENT_DOWNSTREAM | PROBE_EVENT_FLUSH, (void *)guarded_event, guard, NULL);
}

/// Builds the branch, adds it, starts it with the pipeline and links the track to it. With
/// the lock held; the track must be known. 1 on success, -1 with `failure` set.
static int build_branch(Sound *sound) {
    char description[1200];
    snprintf(description, sizeof description,
             "queue name=lamina-sound-queue max-size-buffers=0 max-size-bytes=0 max-size-time=1000000000 ! "
             "audioconvert ! audioresample ! "
             "volume name=lamina-volume ! %s", sound->description);
    GError *error = NULL;
    void *branch = gst.parse_bin_from_description(description, 1, &error);
    if (!branch || error) {
        snprintf(sound->failure, sizeof sound->failure, "the sound branch cannot be made: %s",
                 error && error->message ? error->message : "no reason given");
        if (error) gst.error_free(error);
        if (branch) gst.object_unref(gst.object_ref_sink(branch));
        return -1;
    }
    gst.object_ref_sink(branch);                    // ours: the pipeline takes a reference of its own
    // The branch opens its device (pulsesink and alsasink do in READY) before it joins the
    // pipeline: a sink failing inside a pipeline that is changing state would stall it.
    if (gst.element_set_state(branch, STATE_READY) == STATE_CHANGE_FAILURE) {
        snprintf(sound->failure, sizeof sound->failure, "the audio sink cannot open its device");
        gst.element_set_state(branch, STATE_NULL);
        gst.object_unref(branch);
        return -1;
    }
    // A bin hands its base time to an element only when the bin's state changes: the branch
    // joins a running pipeline, so it takes the pipeline's now.
    lamina_gst_set_base_time(branch, gst.element_get_base_time(sound->pipeline));
    gst.bin_add(sound->pipeline, branch);
    sound->branch = branch;
    apply_volume(sound);
    void *input = gst.element_get_static_pad(branch, "sink");
    if (input) guard_branch(branch, input);
    int started = gst.element_sync_state_with_parent(branch);
    int linked = started && input ? gst.pad_link(sound->track, input) == PAD_LINK_OK : 0;
    if (input) gst.object_unref(input);
    if (!linked) {
        snprintf(sound->failure, sizeof sound->failure, "%s",
                 started ? "the sound track cannot be linked to the sound branch" : "the audio sink cannot start (no audio device?)");
        drop_branch_errors(sound, branch, 1);
        gst.element_set_state(branch, STATE_NULL);
        gst.bin_remove(sound->pipeline, branch);
        gst.object_unref(branch);
        sound->branch = NULL;
        return -1;
    }
    return 1;
}

/// decodebin's pad-added: keeps the first decoded sound track, and links it if sound is wanted.
static void track_added(void *decodebin, void *pad, void *data) {
    (void)decodebin;
    Sound *sound = data;
    void *caps = gst.pad_get_current_caps(pad);
    void *structure = caps ? gst.caps_get_structure(caps, 0) : NULL;
    const char *name = structure ? gst.structure_get_name(structure) : NULL;
    int audio = name && strncmp(name, "audio/x-raw", 11) == 0;
    if (caps) gst.mini_object_unref(caps);
    if (!audio) return;
    pthread_mutex_lock(&sound->lock);
    if (!sound->track) {
        sound->track = gst.object_ref(pad);
        if (sound->wanted && !sound->branch && !sound->failure[0]) build_branch(sound);
    }
    pthread_mutex_unlock(&sound->lock);
}

void *lamina_gst_sound_new(void *pipeline, const char *decodebin_name, const char *sink_description) {
    void *decodebin = gst.bin_get_by_name(pipeline, decodebin_name);
    if (!decodebin) return NULL;
    Sound *sound = calloc(1, sizeof *sound);
    if (!sound) {
        gst.object_unref(decodebin);
        return NULL;
    }
    pthread_mutex_init(&sound->lock, NULL);
    sound->pipeline = pipeline;
    sound->decodebin = decodebin;
    sound->volume = 1;
    snprintf(sound->description, sizeof sound->description, "%s", sink_description);
    sound->handler = gst.signal_connect_data(decodebin, "pad-added", (void *)track_added, sound, NULL, 0);
    return sound;
}

int lamina_gst_sound_enable(void *handle, char *error, size_t error_size) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    sound->wanted = 1;
    int result = sound->branch ? 1 : 0;
    if (!sound->branch && sound->track && !sound->failure[0]) result = build_branch(sound);
    if (sound->failure[0]) result = -1;
    if (result < 0 && error && error_size) snprintf(error, error_size, "%s", sound->failure);
    pthread_mutex_unlock(&sound->lock);
    return result;
}

void lamina_gst_sound_set_volume(void *handle, double volume, int muted) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    sound->volume = volume;
    sound->muted = muted ? 1 : 0;
    apply_volume(sound);
    pthread_mutex_unlock(&sound->lock);
}

int lamina_gst_sound_failure(void *handle, char *message, size_t message_size) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    int failed = sound->failure[0] != 0;
    if (failed) snprintf(message, message_size, "%s", sound->failure);
    pthread_mutex_unlock(&sound->lock);
    return failed;
}

int lamina_gst_sound_has_track(void *handle) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    int has = sound->track != NULL;
    pthread_mutex_unlock(&sound->lock);
    return has;
}

/// The element inside the branch the sound goes to: the last whose class says Sink (a bin such
/// as autoaudiosink comes before the sink it chose). A new reference, or NULL. With the lock held.
static void *branch_sink(Sound *sound) {
    if (!sound->branch) return NULL;
    void *iterator = gst.bin_iterate_recurse(sound->branch);
    if (!iterator) return NULL;
    GValue item = {0};
    void *found = NULL;
    while (gst.iterator_next(iterator, &item) == ITERATOR_OK) {
        void *element = gst.value_get_object(&item);
        void *factory = gst.element_get_factory(element);
        const char *klass = factory ? gst.factory_get_metadata(factory, "klass") : NULL;
        if (klass && strstr(klass, "Sink")) {
            if (found) gst.object_unref(found);
            found = gst.object_ref(element);
        }
        gst.value_unset(&item);
    }
    gst.iterator_free(iterator);
    return found;
}

int lamina_gst_sound_sink_name(void *handle, char *name, size_t name_size) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    void *sink = branch_sink(sound);
    pthread_mutex_unlock(&sound->lock);
    if (!sink) return 0;
    void *factory = gst.element_get_factory(sink);
    char *factory_name = factory ? gst.object_get_name(factory) : NULL;
    snprintf(name, name_size, "%s", factory_name ? factory_name : "?");
    gst.free(factory_name);
    gst.object_unref(sink);
    return 1;
}

uint64_t lamina_gst_sound_sink_base_time(void *handle) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    void *sink = branch_sink(sound);
    pthread_mutex_unlock(&sound->lock);
    if (!sink) return UINT64_MAX;
    uint64_t base = gst.element_get_base_time(sink);
    gst.object_unref(sink);
    return base;
}

int lamina_gst_sound_contains(void *handle, void *object) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    int inside = sound->branch && object && (object == sound->branch || gst.object_has_as_ancestor(object, sound->branch));
    pthread_mutex_unlock(&sound->lock);
    return inside;
}

void lamina_gst_sound_detach(void *handle) {
    Sound *sound = handle;
    pthread_mutex_lock(&sound->lock);
    void *branch = sound->branch;
    sound->branch = NULL;
    if (!sound->failure[0]) snprintf(sound->failure, sizeof sound->failure, "the sound branch failed");
    pthread_mutex_unlock(&sound->lock);
    if (!branch) return;
    void *input = gst.element_get_static_pad(branch, "sink");
    if (input) {
        gst.pad_unlink(sound->track, input);      // the demuxer's sound pushes now go nowhere, and the video on
        gst.object_unref(input);
    }
    gst.element_set_state(branch, STATE_NULL);
    // Stopped, the branch posts nothing more: what it posted after the error that brought the
    // decoder here (the queue's "Internal data stream error" follows the sink's) is the sound's
    // too, and would otherwise be taken as the video's once the branch is no longer known.
    pthread_mutex_lock(&sound->lock);
    drop_branch_errors(sound, branch, 0);
    pthread_mutex_unlock(&sound->lock);
    gst.bin_remove(sound->pipeline, branch);
    gst.object_unref(branch);
}

void lamina_gst_sound_free(void *handle) {
    Sound *sound = handle;
    if (!sound) return;
    gst.signal_handler_disconnect(sound->decodebin, sound->handler);
    if (sound->track) gst.object_unref(sound->track);
    if (sound->branch) gst.object_unref(sound->branch);
    gst.object_unref(sound->decodebin);
    pthread_mutex_destroy(&sound->lock);
    free(sound);
}

long lamina_gst_sound_tap_pull(void *pipeline, float *samples, size_t capacity, uint64_t timeout_ns, uint64_t *pts_ns) {
    void *tap = gst.bin_get_by_name(pipeline, "lamina-sound-tap");
    if (!tap) return -1;
    void *sample = gst.app_sink_try_pull_sample(tap, timeout_ns);
    gst.object_unref(tap);
    if (!sample) return 0;
    GstBuffer *buffer = gst.sample_get_buffer(sample);
    GstMapInfo map;
    long count = 0;
    if (buffer) *pts_ns = buffer->pts;
    if (buffer && gst.buffer_map(buffer, &map, MAP_READ)) {
        size_t available = map.size / sizeof(float);
        count = (long)(available < capacity ? available : capacity);
        memcpy(samples, map.data, (size_t)count * sizeof(float));
        gst.buffer_unmap(buffer, &map);
    }
    gst.mini_object_unref(sample);
    return count;
}
