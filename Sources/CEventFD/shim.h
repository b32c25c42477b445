/* eventfd(2), which Swift's Glibc module leaves out: the kernel counter a real-time thread writes to wake a waiter
   without a lock (see ChoirAudio's Doorbell). */
#include <sys/eventfd.h>
