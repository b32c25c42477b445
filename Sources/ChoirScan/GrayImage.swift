import CPNG
import CTurboJPEG

/// A page as grey levels, one byte a pixel, rows top to bottom: all a model needs of printed music, in a third of a
/// colour JPEG's bytes.
struct GrayImage: Sendable {
    var width: Int
    var height: Int
    var pixels: [UInt8]

    /// The most pixels a page may decode to (a 200-megapixel photograph); more is refused rather than exhaust memory.
    static let largest = 200_000_000

    /// Why an image could not be read or written.
    struct Failure: Error {
        var message: String
    }

    /// Decodes a JPEG no smaller than `longest` pixels on its longer side where it is larger (libjpeg-turbo scales
    /// while it decodes, in eighths), and turned upright as its Exif orientation says; with its full size, upright.
    static func jpeg(_ bytes: [UInt8], atLeast longest: Int) throws(Failure) -> (image: GrayImage, size: (width: Int, height: Int)) {
        guard let handle = tjInitDecompress() else { throw Failure(message: "libjpeg-turbo could not start") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        guard tjDecompressHeader3(handle, bytes, UInt(bytes.count), &width, &height, &subsampling, &colourspace) == 0 else {
            throw Failure(message: "not a JPEG libjpeg-turbo can read (\(String(cString: tjGetErrorStr2(handle))))")
        }
        guard width > 0, height > 0, Int(width) * Int(height) <= largest else {
            throw Failure(message: "\(width)×\(height) pixels: expected at most \(largest / 1_000_000) megapixels")
        }
        // The smallest size libjpeg-turbo decodes to whose longer side still reaches `longest`.
        let long = Int(max(width, height))
        var scale = (numerator: 1, denominator: 1)
        var count: Int32 = 0
        if let factors = tjGetScalingFactors(&count) {
            for factor in UnsafeBufferPointer(start: factors, count: Int(count)) {
                let scaled = Self.scaled(long, factor.num, factor.denom)
                if scaled >= min(longest, long), scaled < Self.scaled(long, Int32(scale.numerator), Int32(scale.denominator)) {
                    scale = (Int(factor.num), Int(factor.denom))
                }
            }
        }
        let w = scaled(Int(width), Int32(scale.numerator), Int32(scale.denominator))
        let h = scaled(Int(height), Int32(scale.numerator), Int32(scale.denominator))
        var pixels = [UInt8](repeating: 0, count: w * h)
        let status = tjDecompress2(handle, bytes, UInt(bytes.count), &pixels, Int32(w), 0, Int32(h), Int32(TJPF_GRAY.rawValue), 0)
        // A warning (a truncated file, say) still leaves the pixels it could decode.
        guard status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else {
            throw Failure(message: "a JPEG libjpeg-turbo cannot decode (\(String(cString: tjGetErrorStr2(handle))))")
        }
        let orientation = Exif.orientation(bytes)
        let size = orientation >= 5 ? (Int(height), Int(width)) : (Int(width), Int(height))
        return (GrayImage(width: w, height: h, pixels: pixels).oriented(orientation), size)
    }

    /// `size` scaled by `numerator`/`denominator`, rounded up as libjpeg-turbo rounds it.
    private static func scaled(_ size: Int, _ numerator: Int32, _ denominator: Int32) -> Int {
        (size * Int(numerator) + Int(denominator) - 1) / Int(denominator)
    }

    /// Decodes a PNG of any kind, transparency laid on white paper.
    static func png(_ bytes: [UInt8]) throws(Failure) -> GrayImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        func message() -> String {
            withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        guard png_image_begin_read_from_memory(&image, bytes, bytes.count) != 0 else {
            throw Failure(message: "not a PNG libpng can read (\(message()))")
        }
        defer { png_image_free(&image) }
        let (width, height) = (Int(image.width), Int(image.height))
        guard width > 0, height > 0, width * height <= largest else {
            throw Failure(message: "\(width)×\(height) pixels: expected at most \(largest / 1_000_000) megapixels")
        }
        image.format = UInt32(PNG_FORMAT_GRAY)
        var pixels = [UInt8](repeating: 0, count: width * height)
        var paper = png_color(red: 255, green: 255, blue: 255)
        guard png_image_finish_read(&image, &paper, &pixels, Int32(width), nil) != 0 else {
            throw Failure(message: "a PNG libpng cannot decode (\(message()))")
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// The image at `quality` (0–100) as a greyscale baseline JPEG.
    func jpeg(quality: Int) throws(Failure) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw Failure(message: "libjpeg-turbo could not start") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(
            handle, pixels, Int32(width), 0, Int32(height), Int32(TJPF_GRAY.rawValue), &buffer, &size, Int32(TJSAMP_GRAY.rawValue),
            Int32(quality), 0)
        defer { tjFree(buffer) }
        guard status == 0, let buffer else { throw Failure(message: "cannot encode a JPEG (\(String(cString: tjGetErrorStr2(handle))))") }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// The image as a greyscale PNG: lossless, and smaller than a JPEG for clean line art (a page rendered from a PDF, a
    /// flatbed scan), where a photograph's grain makes the JPEG smaller.
    func png() throws(Failure) -> [UInt8] {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_GRAY)
        var size = 0
        guard png_image_write_to_memory(&image, nil, &size, 0, pixels, Int32(width), nil) != 0 else {
            throw Failure(message: "cannot encode a PNG")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        guard png_image_write_to_memory(&image, &bytes, &size, 0, pixels, Int32(width), nil) != 0 else {
            throw Failure(message: "cannot encode a PNG")
        }
        return Array(bytes[0..<size])
    }

    /// The image no larger than `longest` pixels on its longer side, each pixel the mean of the area it covers (a box
    /// filter, which keeps thin staff lines as grey rather than dropping them as sampling would).
    func fitting(_ longest: Int) -> GrayImage {
        let long = max(width, height)
        guard long > longest else { return self }
        let newWidth = max(1, (width * longest + long / 2) / long)
        let newHeight = max(1, (height * longest + long / 2) / long)
        let across = Self.coverage(from: width, to: newWidth)
        let down = Self.coverage(from: height, to: newHeight)
        // Across each row, then down each column of the narrowed rows.
        var narrowed = [Float](repeating: 0, count: newWidth * height)
        pixels.withUnsafeBufferPointer { source in
            narrowed.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<newWidth {
                        var sum: Float = 0
                        for (index, weight) in across[x] { sum += Float(source[row + index]) * weight }
                        target[y * newWidth + x] = sum
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight)
        narrowed.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<newHeight {
                    for x in 0..<newWidth {
                        var sum: Float = 0
                        for (index, weight) in down[y] { sum += source[index * newWidth + x] * weight }
                        target[y * newWidth + x] = UInt8(max(0, min(255, sum.rounded())))
                    }
                }
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// For each of `to` cells over `from` pixels, the pixels it covers and the share of the cell each covers.
    private static func coverage(from: Int, to: Int) -> [[(Int, Float)]] {
        let step = Double(from) / Double(to)
        return (0..<to).map { cell in
            let start = Double(cell) * step, end = Double(cell + 1) * step
            return (Int(start)..<min(from, Int(end.rounded(.up)))).compactMap { pixel in
                let overlap = min(Double(pixel + 1), end) - max(Double(pixel), start)
                return overlap > 0 ? (pixel, Float(overlap / step)) : nil
            }
        }
    }

    /// The image turned as Exif `orientation` (1–8) says a viewer shows it: a phone keeps its photographs as the
    /// sensor saw them and says in the file which way is up.
    func oriented(_ orientation: Int) -> GrayImage {
        guard (2...8).contains(orientation) else { return self }
        let turned = orientation >= 5
        let (newWidth, newHeight) = turned ? (height, width) : (width, height)
        // Each shown pixel (x, y) comes from source pixel (sx, sy).
        let source: (Int, Int) -> (Int, Int) =
            switch orientation {
            case 2: { x, y in (width - 1 - x, y) }
            case 3: { x, y in (width - 1 - x, height - 1 - y) }
            case 4: { x, y in (x, height - 1 - y) }
            case 5: { x, y in (y, x) }
            case 6: { x, y in (y, height - 1 - x) }
            case 7: { x, y in (width - 1 - y, height - 1 - x) }
            default: { x, y in (width - 1 - y, x) }
            }
        var out = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<newHeight {
            for x in 0..<newWidth {
                let (sx, sy) = source(x, y)
                out[y * newWidth + x] = pixels[sy * width + sx]
            }
        }
        return GrayImage(width: newWidth, height: newHeight, pixels: out)
    }
}

/// The one Exif field choir reads: which way up a photograph is.
enum Exif {
    /// The orientation (1–8) in a JPEG's Exif segment, 1 (as stored) when there is none.
    static func orientation(_ jpeg: [UInt8]) -> Int {
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            let marker = jpeg[at + 1]
            // Start of scan or end of image: no more metadata. Fill bytes and markers without a length are skipped.
            if marker == 0xDA || marker == 0xD9 { break }
            if marker == 0xFF {
                at += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                at += 2
                continue
            }
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            let segment = at + 4
            if marker == 0xE1, length >= 8, segment + length - 2 <= jpeg.count,
                jpeg[segment..<segment + 6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0])
            {
                return tiffOrientation(jpeg[(segment + 6)..<(segment + length - 2)]) ?? 1
            }
            at = segment + length - 2
        }
        return 1
    }

    /// The orientation tag (0x0112) of a TIFF header's first directory.
    private static func tiffOrientation(_ tiff: ArraySlice<UInt8>) -> Int? {
        let base = tiff.startIndex
        guard tiff.count >= 8 else { return nil }
        let little = tiff[base] == 0x49
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let (a, b) = (Int(tiff[base + offset]), Int(tiff[base + offset + 1]))
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ offset: Int) -> Int? {
            guard let high = u16(little ? offset + 2 : offset), let low = u16(little ? offset : offset + 2) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let directory = u32(4), let entries = u16(directory) else { return nil }
        for entry in 0..<entries {
            let place = directory + 2 + entry * 12
            guard let tag = u16(place) else { return nil }
            if tag == 0x0112 { return u16(place + 8).flatMap { (1...8).contains($0) ? $0 : nil } }
        }
        return nil
    }
}
