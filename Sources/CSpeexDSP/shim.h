#include <speex/speex_echo.h>
