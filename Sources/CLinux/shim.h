// Linux headers Swift's Glibc module does not export.
#ifndef LAMINA_CLINUX_SHIM_H
#define LAMINA_CLINUX_SHIM_H
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/ioctl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/fb.h>
#include <linux/uinput.h>
#include <malloc.h>
#include <spawn.h>
#include <sys/eventfd.h>

/// posix_spawn's change of directory in the child (a GNU extension, glibc 2.29+), declared
/// here as Swift's Glibc module leaves it out.
extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
static inline int lamina_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

/// accept4 and SO_PEERCRED's struct ucred, GNU extensions Swift's Glibc module leaves out.
#include <sys/socket.h>
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
struct lamina_ucred { int pid; unsigned int uid; unsigned int gid; };
static inline int lamina_accept_nonblocking(int fd) {
    return accept4(fd, 0, 0, 04000 /* SOCK_NONBLOCK */ | 02000000 /* SOCK_CLOEXEC */);
}
static inline int lamina_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid) {
    struct lamina_ucred credentials;
    socklen_t length = sizeof credentials;
    int status = getsockopt(fd, SOL_SOCKET, 17 /* SO_PEERCRED */, &credentials, &length);
    if (status == 0) { *pid = credentials.pid; *uid = credentials.uid; *gid = credentials.gid; }
    return status;
}

/// ioctl with an integer argument (Swift cannot call the variadic form with a value).
static inline int lamina_ioctl_value(int fd, unsigned long request, unsigned long value) {
    return ioctl(fd, request, value);
}
/// uinput's ioctl numbers (built with _IOW / _IO, which Swift cannot import).
static inline unsigned long lamina_ui_set_evbit(void) { return UI_SET_EVBIT; }
static inline unsigned long lamina_ui_set_keybit(void) { return UI_SET_KEYBIT; }
static inline unsigned long lamina_ui_set_absbit(void) { return UI_SET_ABSBIT; }
static inline unsigned long lamina_ui_set_propbit(void) { return UI_SET_PROPBIT; }
static inline unsigned long lamina_ui_dev_setup(void) { return UI_DEV_SETUP; }
static inline unsigned long lamina_ui_abs_setup(void) { return UI_ABS_SETUP; }
static inline unsigned long lamina_ui_dev_create(void) { return UI_DEV_CREATE; }
static inline unsigned long lamina_ui_dev_destroy(void) { return UI_DEV_DESTROY; }
/// memrchr, a GNU extension Swift's Glibc module leaves out: the last `byte` in `length`
/// bytes from `start`, or null.
#include <string.h>
extern void *memrchr(const void *start, int byte, size_t length);
static inline const void *lamina_memrchr(const void *start, int byte, size_t length) {
    return memrchr(start, byte, length);
}

#include <sys/prctl.h>

/// Names the calling thread (prctl's variadic PR_SET_NAME, which Swift cannot call): the
/// kernel keeps 15 bytes, shown by `top -H` and `ps -L`.
static inline int lamina_set_thread_name(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

#endif
