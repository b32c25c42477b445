import Glibc

extension String {
    /// Formats `arguments` as C's `printf` does. choir uses this rather than Foundation's `String(printf:)`,
    /// which would link all of Foundation and its ICU data into the binary.
    public init(printf format: String, _ arguments: any CVarArg...) {
        let arguments = Self.withoutNegativeZeros(format, arguments)
        self = withVaList(arguments) { list in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
                let needed = Int(vsnprintf(buffer.baseAddress, 256, format, list))
                guard needed >= 256 else { return String(cString: buffer.baseAddress!) }
                return withVaList(arguments) { again in
                    [CChar](unsafeUninitializedCapacity: needed + 1) { large, count in
                        vsnprintf(large.baseAddress, needed + 1, format, again)
                        count = needed + 1
                    }.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                }
            }
        }
    }
}

extension String {
    /// `arguments` with every negative number that its conversion would print as a negative zero ("-0",
    /// "-0.0 ms", "-0 cents") made a positive zero: a reader sees nothing below zero there.
    private static func withoutNegativeZeros(_ format: String, _ arguments: [any CVarArg]) -> [any CVarArg] {
        var arguments = arguments
        var next = 0
        var characters = format.utf8.makeIterator()
        while let character = characters.next() {
            guard character == UInt8(ascii: "%") else { continue }
            var spec = "%"
            while let part = characters.next() {
                spec.append(Character(UnicodeScalar(part)))
                if part == UInt8(ascii: "*") { next += 1 }
                if part == UInt8(ascii: "%") && spec == "%%" { break }
                guard "diouxXeEfFgGaAcspn".utf8.contains(part) else { continue }
                if "eEfFgGaA".utf8.contains(part), next < arguments.count, let value = arguments[next] as? Double,
                    value.sign == .minus, value.isFinite
                {
                    let printed = withVaList([value]) { list in
                        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                            _ = vsnprintf(buffer.baseAddress, 64, spec, list)
                            return String(cString: buffer.baseAddress!)
                        }
                    }
                    if !printed.contains(where: { "123456789".contains($0) }) { arguments[next] = 0.0 }
                }
                next += 1
                break
            }
        }
        return arguments
    }
}

extension String {
    /// `n` and `noun`, plural (with an "s", or as `plural` says) unless `n` is 1: "1 item", "3 runs", "2 stretches".
    public init(count n: Int, _ noun: String, plural: String? = nil) {
        self = "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }

    /// The string padded with spaces to `width` characters, on the right (left-aligned) or on the left.
    public func padded(to width: Int, alignRight: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - count))
        return alignRight ? padding + self : self + padding
    }
}

extension String {
    /// The string as one word of a POSIX shell command: as it is when it needs no quoting, else in single quotes.
    public var shellQuoted: String {
        let plain = !isEmpty && allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-./:=@%+,".contains($0)) }
        return plain ? self : "'" + replacing("'", with: "'\\''") + "'"
    }
}
