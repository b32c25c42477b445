#include <alsa/asoundlib.h>

/* ALSA prints its own diagnostics on stderr; choir reports device errors itself, on one line. Swift cannot
   write a variadic C callback, so the quiet handler lives here. */
static void choir_alsa_quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void choir_alsa_silence_errors(void) { snd_lib_error_set_handler(choir_alsa_quiet); }
