// GStreamer for Lamina's video layers, loaded when a scene first plays a video (dlopen), so
// a daemon without video never maps it. One thin function per GStreamer call Lamina makes;
// the library's handles are opaque pointers. Every function is safe to call from any thread
// once lamina_gst_load has succeeded.
#ifndef LAMINA_GSTREAMER_H
#define LAMINA_GSTREAMER_H

#include <stddef.h>
#include <stdint.h>

/// Loads libgstreamer-1.0 and libgstapp-1.0 and initialises GStreamer (once; later calls
/// return the first result). 0 on success; otherwise -1 with the reason in `error`.
int lamina_gst_load(char *error, size_t error_size);

/// A pipeline from a gst-launch description (gst_parse_launch); NULL with the reason in
/// `error` when it cannot be made.
void *lamina_gst_parse_launch(const char *description, char *error, size_t error_size);

/// The element of `bin` named `name` (a new reference), or NULL.
void *lamina_gst_bin_get_by_name(void *bin, const char *name);

/// gst_element_set_state; `state` 1 NULL, 2 READY, 3 PAUSED, 4 PLAYING. Returns
/// GstStateChangeReturn (0 failure, 1 success, 2 async, 3 no preroll).
int lamina_gst_element_set_state(void *element, int state);

/// Drops a reference to a GstObject (pipeline, element).
void lamina_gst_object_unref(void *object);

/// The next decoded sample, waiting at most `timeout_ns`; NULL at the end of the stream, on
/// an error or when the time is up (lamina_gst_app_sink_is_eos tells which).
void *lamina_gst_app_sink_try_pull_sample(void *sink, uint64_t timeout_ns);

/// Whether the sink has reached the end of the stream.
int lamina_gst_app_sink_is_eos(void *sink);

/// A decoded frame's size (from its caps), its row stride in bytes, its presentation time and
/// its duration in nanoseconds (UINT64_MAX when it has none). 0 on success, -1 when the sample
/// has no buffer or caps without a size.
int lamina_gst_sample_describe(void *sample, int32_t *width, int32_t *height, int32_t *stride,
                               uint64_t *pts_ns, uint64_t *duration_ns);

/// Copies `height` rows of `row_bytes` bytes from the sample's buffer (rows `stride` apart)
/// into `destination` (rows `destination_stride` apart). 0 on success, -1 when the buffer
/// cannot be read or is smaller than that.
int lamina_gst_sample_copy_rows(void *sample, int32_t stride, int32_t row_bytes, int32_t height,
                                uint8_t *destination, int32_t destination_stride);

/// Drops the sample.
void lamina_gst_sample_unref(void *sample);

/// Keeps the buffer of `sample` alive, mapped for reading, so its pixels are read in place
/// (no copy): their address through `data`; the handle to give `lamina_gst_sample_release`.
/// The sample itself is not kept (appsink reuses it).
/// NULL (copy the rows instead) when the buffer maps to fewer than `bytes` bytes, is not
/// aligned to 4, or comes from a pool that allows fewer than 32 buffers: holding a frame
/// keeps its buffer from the pool, and a decoder with few (a V4L2 decoder's capture
/// buffers) would wait for them. A scanout pool's buffers are held whatever their number:
/// its frames are meant to be held until the plane has shown them.
void *lamina_gst_sample_hold(void *sample, size_t bytes, const uint8_t **data);

/// Unmaps and lets go of a buffer `lamina_gst_sample_hold` kept.
void lamina_gst_sample_release(void *held);

/// The first error message waiting on the pipeline's bus, removed from it: 1 with its text in
/// `message` (the element that posted it, then GStreamer's description), 0 when there is none.
int lamina_gst_pop_error(void *pipeline, char *message, size_t message_size);

/// Seeks the pipeline to `position_ns`, flushing what is queued, to play on at `rate` (the
/// segment's rate: a sound branch plays that much faster); `accurate` decodes from the key
/// frame before it so the first frame out is the one at the position (otherwise the key frame
/// itself comes first). 1 when GStreamer took the seek.
int lamina_gst_seek(void *pipeline, uint64_t position_ns, double rate, int accurate);

/// The name of the element factory decoding the video in `bin` (its first element whose class
/// says Decoder and Video, searched through nested bins, such as `avdec_h264`, `vp9dec`,
/// `v4l2h264dec` or `vah264dec`): 1 with the name in `name`, 0 when there is none yet.
int lamina_gst_video_decoder_name(void *bin, char *name, size_t name_size);

/// The video decoders GStreamer's registry lists (element factories whose class says Decoder
/// and Video, rank marginal or above), one a line as `name<TAB>rank<TAB>class`, highest rank
/// first, written into `out` (cut at `out_size`). Returns how many there are.
int lamina_gst_video_decoders(char *out, size_t out_size);

/// Makes `pipeline` keep time by GStreamer's system clock (CLOCK_MONOTONIC, the clock Lamina's
/// frames are timed by) with no start time, so the pipeline never picks its own base time: the
/// player sets it (lamina_gst_set_base_time) to put the sound's running time on the display's
/// schedule.
void lamina_gst_use_system_clock(void *pipeline);

/// Sets the base time of `pipeline` and of every element in it (a running sink reads its own
/// base time at each buffer it syncs; the pipeline hands its own to elements when their state
/// changes), in nanoseconds on the system clock.
void lamina_gst_set_base_time(void *pipeline, uint64_t base_time_ns);

/// The base time of the element the sound goes to (see lamina_gst_sound_sink_name), in
/// nanoseconds; UINT64_MAX while there is no sound branch.
uint64_t lamina_gst_sound_sink_base_time(void *sound);

/// The preroll sample (the frame a paused pipeline shows after a seek), waiting at most
/// `timeout_ns`; NULL when none came. Taking it clears it.
void *lamina_gst_app_sink_try_pull_preroll(void *sink, uint64_t timeout_ns);

/// A video's sound, added to its pipeline only when asked for (sound is off by default, and a
/// daemon whose videos are muted never opens an audio device). Made before the pipeline
/// starts: it watches `decodebin_name` for a decoded sound track and keeps it, and once
/// asked, links it to a branch `queue ! audioconvert ! audioresample ! volume ! SINK`, where
/// SINK is `sink_description` (`autoaudiosink`, or a test's tap). NULL when the element is
/// missing.
void *lamina_gst_sound_new(void *pipeline, const char *decodebin_name, const char *sink_description);

/// Asks for sound: builds and links the branch now if the track is known, or when it
/// appears. 1 when sound is playing, 0 when the clip has shown no sound track yet, -1 when
/// the branch could not be built or started (its sink could not open a device; the reason in
/// `error`); the video plays on either way.
int lamina_gst_sound_enable(void *sound, char *error, size_t error_size);

/// Sets the branch's volume (0…1, a linear gain) and mute; kept for a branch built later.
void lamina_gst_sound_set_volume(void *sound, double volume, int muted);

/// Why the sound branch could not be built or failed: 1 with the reason in `message`, 0 when
/// it has not failed.
int lamina_gst_sound_failure(void *sound, char *message, size_t message_size);

/// Whether the clip has a sound track (known once the pipeline has prerolled).
int lamina_gst_sound_has_track(void *sound);

/// The element the sound goes to, found inside the branch (`pulsesink`, `alsasink`,
/// `fakesink` when `autoaudiosink` found no device, `appsink` for a tap): 1 with its factory
/// name in `name`, 0 while there is no branch.
int lamina_gst_sound_sink_name(void *sound, char *name, size_t name_size);

/// Takes the branch out of the pipeline (after its sink failed): the track is unlinked first,
/// so the demuxer goes on feeding the video.
void lamina_gst_sound_detach(void *sound);

/// Whether GStreamer `object` (an error's source) is inside the sound branch.
int lamina_gst_sound_contains(void *sound, void *object);

/// Drops the sound's watch and references; after the pipeline is set to NULL.
void lamina_gst_sound_free(void *sound);

/// The first error waiting on the pipeline's bus, as lamina_gst_pop_error, telling whether it
/// came from inside `sound`'s branch: 2 for the sound's, 1 for another's, 0 for none.
int lamina_gst_pop_error_sorted(void *pipeline, void *sound, char *message, size_t message_size);

/// A test's tap: up to `capacity` mono F32 samples from the appsink named `lamina-sound-tap`
/// in `pipeline`, waiting at most `timeout_ns` for one buffer, and the buffer's presentation
/// time in `pts_ns` (UINT64_MAX when it has none). The count written; 0 when none came, -1
/// when there is no tap.
long lamina_gst_sound_tap_pull(void *pipeline, float *samples, size_t capacity, uint64_t timeout_ns, uint64_t *pts_ns);

// MARK: Frames written into scanout memory (decision 148)

/// One buffer a scanout pool lends GStreamer: mapped memory of `size` bytes, rows `pitch`
/// bytes apart, that stays mapped while the pool or any frame made over it lives.
typedef struct {
    uint8_t *data;
    size_t size;
    int32_t pitch;
} lamina_scanout_buffer;

/// A GstBufferPool whose buffers are `count` of `buffers` (copied), each a BGRA frame of
/// `width` x `height` with a GstVideoMeta giving its pitch, so an element upstream that takes
/// the pool writes frames straight into them. `release(context)` is called once, on any
/// thread, when GStreamer holds none of them any more (the pool and every GstBuffer made over
/// them are gone). NULL when the sizes are wrong or GStreamer lacks what the pool needs.
void *lamina_gst_scanout_pool_new(const lamina_scanout_buffer *buffers, int count, int width, int height,
                                  void (*release)(void *), void *context);

/// Drops the caller's reference to a scanout pool.
void lamina_gst_scanout_pool_unref(void *pool);

/// Whether `pool` (a GstBuffer's pool) is a scanout pool.
int lamina_gst_is_scanout_pool(void *pool);

/// The row pitch in bytes of a sample whose buffer comes from a scanout pool; 0 for another.
int32_t lamina_gst_sample_scanout_pitch(void *sample);

/// Makes `sink` (an appsink) able to offer a scanout pool upstream: a probe on its pad that
/// answers allocation queries. The handle lives as long as the sink; NULL on failure.
void *lamina_gst_scanout_offer_new(void *sink);

/// Offers `pool` (NULL: none) for the frames from now on, when they are its size, and asks the
/// element upstream to choose its pool again.
void lamina_gst_scanout_offer_set(void *offer, void *pool);

#endif
