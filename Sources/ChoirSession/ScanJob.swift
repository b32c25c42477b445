import ChoirLibrary
import ChoirModel
import ChoirScan

/// A scan from printed pages to a score in the library, as every front end runs it: the output found writable
/// before the model is paid for, the pages read by the model, the score written (or, when it cannot be, the model's
/// last reply kept beside it to look at), then filed in the library with its pages as its source.
public struct ScanJob {
    /// What a finished scan did, in words for the singer.
    public struct Finished: Sendable {
        /// What the scan found and wrote (``Scan/summary(of:_:written:)``).
        public var summary: String
        /// Why the written score is not in the library; nil when it was filed. The scan is paid for and written, so
        /// this is said rather than failing the scan.
        public var notFiled: String?
        /// How to practise the score, when it has the line the scan was told of.
        public var practice: String?
    }

    public let scan: Scan
    public let endpoint: ModelEndpoint
    private let output: ScanOutput

    /// Prepares `scan` (which writes `output`) through `endpoint`; throws when `output` cannot be written.
    public init(_ scan: Scan, writing output: String, through endpoint: ModelEndpoint) throws(ScanError) {
        self.scan = scan
        self.endpoint = endpoint
        self.output = try ScanOutput(path: output)
    }

    /// Runs the scan with `client`, saying each step to `progress`, and files the score in the library at `library`.
    /// A failed scan's error says where the model's last reply was kept, if it was.
    public func run(_ client: ChatClient, library: String, progress: (String) -> Void) throws(ScanError) -> Finished {
        let result: Scan.Result
        do {
            result = try scan.run(client, progress: progress)
            try output.write(result)
        } catch {
            let kept = error.rejected.flatMap { output.keep(rejected: $0) }
            throw ScanError(error.kind, error.description + (kept.map { "; its last reply is kept in \($0)" } ?? ""))
        }
        var notFiled: String?
        do {
            try Library(path: library).add(scanned: output.path, result, of: scan, endpoint)
        } catch {
            notFiled = "\(output.path) is written but not in the library (\(error)): add it with choir library add"
        }
        return Finished(
            summary: scan.summary(of: result, endpoint, written: output.path), notFiled: notFiled,
            practice: scan.practice(result, written: output.path))
    }
}
