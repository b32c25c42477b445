import Glibc

/// File names as the system has them: bytes, which need not be UTF-8 (a name from an old archive in Latin-1, say).
/// A String holds such a name with each byte that is not part of valid UTF-8 as a character of its own, in a
/// private use area (U+10FF80 to U+10FFFF, the byte's value above U+10FF00), so that a name goes from the command
/// line to the file system unchanged, and is printed as the bytes it is. Every call that hands a name to the system
/// goes through ``withPath(_:_:)``.
public enum FileName {
    private static let base: UInt32 = 0x10_FF00

    /// `bytes` as a String: valid UTF-8 as it is, every other byte (and any character of the escapes' own range,
    /// byte by byte, so that it comes back as it was) escaped.
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        var text = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var rest = bytes[...]
        func escape(_ count: Int) {
            for byte in rest.prefix(count) { text.append(Unicode.Scalar(base + UInt32(byte))!) }
            rest = rest.dropFirst(count)
        }
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if scalar.value >= base + 0x80 {
                    escape(encoded.count)
                } else {
                    text.append(scalar)
                    rest = rest.dropFirst(encoded.count)
                }
            case .error(let length): escape(length)
            case .emptyInput: return String(text)
            }
        }
    }

    /// The bytes `name` stands for.
    public static func encode(_ name: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF {
                bytes.append(UInt8(scalar.value - base))
            } else {
                bytes += Array(String(scalar).utf8)
            }
        }
        return bytes
    }

    /// Whether `name` holds a byte that is not UTF-8 (or an escape's character).
    public static func isEscaped(_ name: String) -> Bool { name.unicodeScalars.contains { $0.value >= base + 0x80 } }

    /// Calls `body` with `name` as the C string the system's calls take.
    public static func withPath<Result>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        guard isEscaped(name) else { return try name.withCString(body) }
        let bytes = encode(name).map { CChar(bitPattern: $0) } + [0]
        return try bytes.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    /// The command line's arguments, their bytes kept (Swift's own decoding replaces bytes that are not UTF-8).
    public static var arguments: [String] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return decode(
                UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
        }
    }

    /// Whether something is at `name`.
    public static func exists(_ name: String) -> Bool {
        var status = stat()
        return withPath(name) { stat($0, &status) } == 0
    }

    /// The names in the folder `name` (without "." and ".."), in the order the system gives them; nil if it cannot
    /// be read.
    public static func names(in folder: String) -> [String]? {
        guard let directory = withPath(folder, { opendir($0) }) else { return nil }
        defer { closedir(directory) }
        var names: [String] = []
        // The name is read where it lies: the system's entry is only as long as its name, so copying the whole
        // `dirent` (256 bytes of name) can run past the end of the system's buffer into an unmapped page.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let start = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: UInt8.self)
            let name = decode(UnsafeBufferPointer(start: start, count: strlen(UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self))))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The folder the process runs in; nil if the system cannot say (it was removed).
    public static var currentFolder: String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return decode(UnsafeBufferPointer(start: UnsafeRawPointer(path).assumingMemoryBound(to: UInt8.self), count: strlen(path)))
    }

    /// The whole file at `name`; nil if it cannot be opened or read (``exists(_:)`` tells which).
    public static func contents(_ name: String) -> [UInt8]? {
        let descriptor = withPath(name) { open($0, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
