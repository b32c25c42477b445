import CCurl
import Glibc

/// An HTTP POST through libcurl, waited on: the one kind of request the model's server takes.
///
/// Redirects are not followed (a server that moves would take the key with it) and only HTTP and HTTPS are
/// spoken. libcurl's own signal handling is off, so that it can run beside the session's threads.
enum CurlTransport {
    struct Response {
        var status: Int
        /// Header names in lower case; the last of a repeated header wins.
        var headers: [String: String]
        var body: [UInt8]
    }

    enum Failure: Error {
        /// The whole request took longer than its timeout.
        case timedOut
        /// No connection could be made: no such host, refused, no route.
        case unreachable(String)
        /// The connection broke before the whole answer came.
        case dropped(String)
        /// Anything else libcurl refuses (a malformed address, TLS that does not verify).
        case failed(String)
    }

    /// libcurl wants its global state set up once, before any other thread uses it.
    private static let ready: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    /// The version of libcurl choir runs with, and its TLS library: "libcurl/7.88.1 OpenSSL/3.0.17 …".
    static var version: String { String(cString: curl_version()) }

    /// What the callbacks collect, reached through libcurl's context pointer.
    private final class Received {
        var body: [UInt8] = []
        var headers: [String: String] = [:]
    }

    /// POSTs `body` to `url` with `headers` ("Name: value"), giving up after `timeout` seconds in all and
    /// `connectTimeout` to connect.
    static func post(url: String, headers: [String], body: [UInt8], timeout: Double, connectTimeout: Double) throws(Failure)
        -> Response
    {
        guard ready, let curl = curl_easy_init() else { throw .failed("libcurl could not start") }
        defer { curl_easy_cleanup(curl) }
        var list: UnsafeMutablePointer<curl_slist>?
        // "Expect:" turns off libcurl's wait for "100 Continue" before a large body.
        for header in headers + ["Expect:"] { list = curl_slist_append(list, header) }
        defer { curl_slist_free_all(list) }
        let received = Received()
        let context = Unmanaged.passUnretained(received).toOpaque()

        let write: choir_curl_callback = { data, size, count, context in
            let received = Unmanaged<Received>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            if let data, length > 0 {
                received.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
            }
            return length
        }
        let header: choir_curl_callback = { data, size, count, context in
            let received = Unmanaged<Received>.fromOpaque(context!).takeUnretainedValue()
            let length = size * count
            guard let data else { return length }
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                // A new response (after "100 Continue", say): its headers only.
                received.headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }.filter { !$0.isNewline }
                received.headers[name] = value
            }
            return length
        }

        // Strings are copied by libcurl as they are set; the error buffer must outlive the transfer.
        let errors = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errors.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errors.deallocate() }
        choir_curl_set_string(curl, CURLOPT_URL, url)
        choir_curl_set_string(curl, CURLOPT_PROTOCOLS_STR, "http,https")
        choir_curl_set_string(curl, CURLOPT_USERAGENT, "choir/\(ModelEndpoint.clientVersion)")
        choir_curl_set_long(curl, CURLOPT_NOSIGNAL, 1)
        choir_curl_set_long(curl, CURLOPT_FOLLOWLOCATION, 0)
        choir_curl_set_long(curl, CURLOPT_POSTFIELDSIZE, body.count)
        body.withUnsafeBytes { _ = choir_curl_set_pointer(curl, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)) }
        choir_curl_set_pointer(curl, CURLOPT_HTTPHEADER, list)
        // Any encoding libcurl can undo (gzip, deflate): MusicXML compresses well.
        choir_curl_set_string(curl, CURLOPT_ACCEPT_ENCODING, "")
        choir_curl_set_long(curl, CURLOPT_TIMEOUT_MS, Int(max(1, timeout * 1000)))
        choir_curl_set_long(curl, CURLOPT_CONNECTTIMEOUT_MS, Int(max(1, connectTimeout * 1000)))
        choir_curl_set_callback(curl, CURLOPT_WRITEFUNCTION, write)
        choir_curl_set_pointer(curl, CURLOPT_WRITEDATA, context)
        choir_curl_set_callback(curl, CURLOPT_HEADERFUNCTION, header)
        choir_curl_set_pointer(curl, CURLOPT_HEADERDATA, context)
        choir_curl_set_pointer(curl, CURLOPT_ERRORBUFFER, errors)
        let code = curl_easy_perform(curl)
        guard code == CURLE_OK else {
            let detail = errors[0] != 0 ? String(cString: errors) : String(cString: curl_easy_strerror(code))
            switch code {
            case CURLE_OPERATION_TIMEDOUT: throw .timedOut
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT: throw .unreachable(detail)
            case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
                throw .dropped(detail)
            default: throw .failed(detail)
            }
        }
        var status = 0
        choir_curl_response_code(curl, &status)
        return Response(status: status, headers: received.headers, body: received.body)
    }
}
