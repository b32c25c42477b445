#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed entry for each kind of
   value choir passes. */
typedef size_t (*choir_curl_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode choir_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode choir_curl_set_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode choir_curl_set_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode choir_curl_set_callback(CURL *curl, CURLoption option, choir_curl_callback value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode choir_curl_response_code(CURL *curl, long *code) {
    return curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, code);
}
