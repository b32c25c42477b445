import CZlib
import Foundation

/// The pixels of a PNG file, enough to look at a browser's screenshot: 8-bit RGB or RGBA, not interlaced.
struct PNGImage {
    let width: Int, height: Int
    /// Red, green, blue for each pixel, row by row.
    let rgb: [UInt8]

    struct Unsupported: Error, CustomStringConvertible { var description: String }

    /// What headless Chromium shows of the page at `html`, offline, in a window `width` by `height`; its profile and
    /// the picture go in `folder`. Chromium runs at the test's niceness (`Tests/Fixtures/chromium-at-my-priority`).
    static func screenshot(of html: String, width: Int, height: Int, folder: String) throws -> PNGImage {
        let shot = folder + "/" + URL(fileURLWithPath: html).deletingPathExtension().lastPathComponent + ".png"
        let browser = Process()
        browser.executableURL = CLI.root.appendingPathComponent("Tests/Fixtures/chromium-at-my-priority")
        browser.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=\(width),\(height)",
            "--user-data-dir=\(folder)/chromium", "--screenshot=\(shot)", URL(fileURLWithPath: html).absoluteString,
        ]
        browser.standardOutput = FileHandle.nullDevice
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        browser.waitUntilExit()
        guard browser.terminationStatus == 0 else { throw Unsupported(description: "chromium exited with \(browser.terminationStatus)") }
        return try PNGImage(contentsOf: URL(fileURLWithPath: shot))
    }

    init(contentsOf url: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard bytes.count > 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw Unsupported(description: "\(url.path): not a PNG file")
        }
        func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var (width, height, channels) = (0, 0, 0)
        var compressed: [UInt8] = []
        var at = 8
        while at + 8 <= bytes.count {
            let length = be32(at), type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = (at + 8)..<(at + 8 + length)
            if type == "IHDR" {
                (width, height) = (be32(body.lowerBound), be32(body.lowerBound + 4))
                let (depth, colour, interlace) = (bytes[body.lowerBound + 8], bytes[body.lowerBound + 9], bytes[body.lowerBound + 12])
                guard depth == 8, colour == 2 || colour == 6, interlace == 0 else {
                    throw Unsupported(description: "\(url.path): depth \(depth), colour type \(colour), interlace \(interlace)")
                }
                channels = colour == 2 ? 3 : 4
            } else if type == "IDAT" {
                compressed += bytes[body]
            }
            at = body.upperBound + 4
        }
        let stride = width * channels
        var raw = [UInt8](repeating: 0, count: height * (stride + 1))
        var rawLength = uLongf(raw.count)
        let status = uncompress(&raw, &rawLength, compressed, uLong(compressed.count))
        guard status == Z_OK, rawLength == raw.count else { throw Unsupported(description: "\(url.path): bad image data") }
        // Undo each row's filter (PNG spec, section 9), in place.
        for row in 0..<height {
            let start = row * (stride + 1) + 1, filter = raw[start - 1]
            for i in 0..<stride {
                let a = i >= channels ? Int(raw[start + i - channels]) : 0
                let b = row > 0 ? Int(raw[start + i - stride - 1]) : 0
                let c = row > 0 && i >= channels ? Int(raw[start + i - stride - 1 - channels]) : 0
                let predictor: Int
                switch filter {
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: predictor = 0
                }
                raw[start + i] = UInt8(truncatingIfNeeded: Int(raw[start + i]) + predictor)
            }
        }
        var rgb = [UInt8]()
        rgb.reserveCapacity(width * height * 3)
        for row in 0..<height {
            let start = row * (stride + 1) + 1
            for pixel in 0..<width { rgb += raw[(start + pixel * channels)..<(start + pixel * channels + 3)] }
        }
        (self.width, self.height, self.rgb) = (width, height, rgb)
    }

    /// The pixels within `tolerance` of `colour` in every channel, as (x, y).
    func pixels(near colour: (Int, Int, Int), tolerance: Int = 6) -> [(x: Int, y: Int)] {
        var found: [(x: Int, y: Int)] = []
        for i in 0..<(width * height) {
            let (r, g, b) = (Int(rgb[3 * i]), Int(rgb[3 * i + 1]), Int(rgb[3 * i + 2]))
            if abs(r - colour.0) <= tolerance && abs(g - colour.1) <= tolerance && abs(b - colour.2) <= tolerance {
                found.append((i % width, i / width))
            }
        }
        return found
    }
}
