#include <fluidsynth.h>
