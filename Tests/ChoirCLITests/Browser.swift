import Foundation
import Testing

/// Headless Chromium driven through Playwright (`Tests/Fixtures/browser-driver.py`), one request at a time.
final class Browser {
    private let driver = Process()
    private let requests = Pipe(), answers = Pipe(), errors = Pipe()
    private var buffered = Data()

    init() throws {
        driver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        driver.arguments = ["python3", CLI.root.appendingPathComponent("Tests/Fixtures/browser-driver.py").path]
        driver.standardInput = requests
        driver.standardOutput = answers
        driver.standardError = errors
        try driver.run()
    }

    deinit {
        try? requests.fileHandleForWriting.close()
        driver.waitUntilExit()
    }

    /// Sends one request and returns the answer's value (or `true`); a driver's error fails the test.
    @discardableResult
    func ask(_ request: [String: Any]) throws -> Any {
        requests.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request) + Data("\n".utf8))
        while !buffered.contains(UInt8(ascii: "\n")) {
            let more = answers.fileHandleForReading.availableData
            if more.isEmpty {
                let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw Failure(description: "the browser driver ended: \(said)")
            }
            buffered += more
        }
        let end = buffered.firstIndex(of: UInt8(ascii: "\n"))!
        let line = buffered[..<end]
        buffered = Data(buffered[(end + 1)...])
        let answer = try #require(try JSONSerialization.jsonObject(with: line) as? [String: Any])
        if let error = answer["error"] as? String { throw Failure(description: "\(request): \(error)") }
        return answer["value"] ?? true
    }

    func open(_ url: String, width: Int = 1400, height: Int = 1000) throws { try ask(["open": url, "width": width, "height": height]) }
    /// Loads the page again and returns once it has loaded: a `location.reload()` evaluated in the page returns
    /// before the old page goes, so what is asked next may meet the old page or none.
    func reload() throws { try ask(["reload": true]) }
    func eval(_ script: String) throws -> Any { try ask(["eval": script]) }
    /// Resizes the window, as its user would.
    func resize(width: Int, height: Int) throws { try ask(["viewport": [width, height]]) }
    func key(_ key: String) throws { try ask(["key": key]) }
    /// Presses the mouse's button at `from`, moves to `to` and lets go, as a hand drags.
    func drag(from: [Double], to: [Double]) throws { try ask(["drag": [from, to]]) }
    /// Chooses `files` in the file input `selector`, as its dialog would.
    func choose(_ selector: String, files: [String]) throws { try ask(["choose": selector, "files": files]) }

    /// Evaluates `script` every 50 ms until it is true, for up to `timeout` seconds (a page loading in between
    /// is waited for). The default is long because the suites beside the real-time one run at the lowest priority,
    /// where a page and its engraving can take many seconds on a loaded machine; a wait that comes true costs none of it.
    func wait(_ script: String, timeout: Double = 30) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? eval(script)) as? Bool == true { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    func screenshot(_ path: String) throws -> PNGImage {
        try ask(["screenshot": path])
        return try PNGImage(contentsOf: URL(fileURLWithPath: path))
    }

    /// The commands the page has sent on its WebSocket since the last call (not its reports of frames painted).
    func sent(_ count: Int = 0) throws -> [String] { try ask(["sent": count]) as? [String] ?? [] }

    struct Failure: Error, CustomStringConvertible { var description: String }
}
