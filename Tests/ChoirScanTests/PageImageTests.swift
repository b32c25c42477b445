import CPNG
import Foundation
import Testing

@testable import ChoirScan

/// Pages as the model is sent them: upright, grey, no larger than asked, read from JPEG, PNG and PDF.
struct PageImageTests {
    static let pdf = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/scan/amazing-grace.pdf").path

    /// `bytes` in a file of its own, for ScanPage.load.
    static func file(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "choir-page-\(UUID().uuidString)-\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A `width`×`height` image, black left of `split` and white from it.
    static func halves(_ width: Int, _ height: Int, split: Int) -> GrayImage {
        GrayImage(width: width, height: height, pixels: (0..<height).flatMap { _ in (0..<width).map { $0 < split ? 0 : 255 } })
    }

    /// The mean grey of the rows `rows` and columns `columns` of a decoded page.
    static func mean(_ page: ScanPage, rows: Range<Int>, columns: Range<Int>) throws -> Double {
        let image = page.mediaType == "image/png" ? try GrayImage.png(page.image) : try GrayImage.jpeg(page.image, atLeast: .max).image
        var sum = 0
        for y in rows { for x in columns { sum += Int(image.pixels[y * image.width + x]) } }
        return Double(sum) / Double(rows.count * columns.count)
    }

    /// A photograph larger than asked is scaled to its longest side; a smaller one is sent as it is, not enlarged.
    @Test func photographsAreScaledDownNeverUp() throws {
        let large = try Self.file(try Self.halves(3000, 2000, split: 1500).jpeg(quality: 90), "large.jpg")
        let small = try Self.file(try Self.halves(800, 600, split: 400).jpeg(quality: 90), "small.jpg")
        let pages = try ScanPage.load([large, small], longest: 1000)
        #expect(pages.map(\.width) == [1000, 800] && pages.map(\.height) == [667, 600])
        #expect(pages[0].original == (3000, 2000) && pages[1].original == (800, 600))
        #expect(pages.map(\.page) == [nil, nil])
        // Clean black and white: the PNG is the smaller.
        #expect(pages[0].label.hasSuffix("large.jpg, 1000×667 PNG (from 3000×2000)"))
        #expect(pages[0].dataURL.hasPrefix("data:image/png;base64,iVBORw0KGgo"))
        #expect(try Self.mean(pages[0], rows: 0..<667, columns: 0..<480) < 3)
        #expect(try Self.mean(pages[0], rows: 0..<667, columns: 520..<1000) > 252)
    }

    /// A photograph's grain goes as a JPEG, which is then the smaller; clean line art as a PNG.
    @Test func theSmallerOfJPEGAndPNG() throws {
        var generator = SystemRandomNumberGenerator()
        let grain = GrayImage(width: 600, height: 800, pixels: (0..<480_000).map { _ in UInt8.random(in: 150...230, using: &generator) })
        let photograph = try ScanPage.load([try Self.file(try grain.jpeg(quality: 90), "grain.jpg")])[0]
        #expect(photograph.mediaType == "image/jpeg" && photograph.dataURL.hasPrefix("data:image/jpeg;base64,/9j/"))
        #expect(photograph.image.count < (try grain.png()).count)
        let page = try ScanPage.load([Self.pdf], longest: 1000)[0]
        #expect(page.mediaType == "image/png")
        #expect(page.image.count < (try (try GrayImage.png(page.image)).jpeg(quality: ScanPage.quality)).count)
    }

    /// Scaling averages the area each pixel covers: a page of alternate black and white lines turns grey where
    /// sampling would keep one colour or the other.
    @Test func scalingAveragesWhatItCovers() {
        let lines = GrayImage(
            width: 1000, height: 1000, pixels: (0..<1000).flatMap { row in [UInt8](repeating: row % 2 == 0 ? 0 : 255, count: 1000) })
        let quarter = lines.fitting(250)
        #expect(quarter.width == 250 && quarter.height == 250)
        #expect(quarter.pixels.allSatisfy { (127...128).contains($0) }, "\(quarter.pixels.min()!)–\(quarter.pixels.max()!)")
        // A third: each pixel covers three lines and a sliver, two of one colour; the page stays as grey.
        let third = lines.fitting(333)
        let mean = Double(third.pixels.reduce(0) { $0 + Int($1) }) / Double(third.pixels.count)
        #expect(third.width == 333 && abs(mean - 127.5) < 1, "\(mean)")
        #expect(lines.fitting(1000).pixels == lines.pixels)
    }

    /// A phone's photograph, stored as the sensor saw it with its Exif orientation, is turned upright: black on the
    /// left turned 90° clockwise (6) is black on top, 90° anticlockwise (8) at the bottom, and half a turn (3) on the
    /// right; in either byte order.
    @Test func exifOrientationTurnsThePhotograph() throws {
        let sensor = try Self.halves(64, 32, split: 32).jpeg(quality: 95)
        func turned(_ orientation: UInt16, littleEndian: Bool) throws -> ScanPage {
            func u16(_ value: UInt16) -> [UInt8] {
                littleEndian ? [UInt8(value & 0xFF), UInt8(value >> 8)] : [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            func u32(_ value: UInt32) -> [UInt8] {
                littleEndian
                    ? u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16)) : u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF))
            }
            let tiff =
                (littleEndian ? Array("II".utf8) : Array("MM".utf8)) + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1)
                + u16(orientation) + [0, 0] + u32(0)
            let exif = Array("Exif".utf8) + [0, 0] + tiff
            let segment: [UInt8] = [0xFF, 0xE1, UInt8((exif.count + 2) >> 8), UInt8((exif.count + 2) & 0xFF)] + exif
            return try ScanPage.load([try Self.file(Array(sensor[0..<2]) + segment + Array(sensor[2...]), "turned.jpg")], longest: 1000)[0]
        }
        for littleEndian in [false, true] {
            let clockwise = try turned(6, littleEndian: littleEndian)
            #expect(clockwise.width == 32 && clockwise.height == 64 && clockwise.original == (32, 64))
            #expect(try Self.mean(clockwise, rows: 0..<28, columns: 0..<32) < 5)
            #expect(try Self.mean(clockwise, rows: 36..<64, columns: 0..<32) > 250)
            let anticlockwise = try turned(8, littleEndian: littleEndian)
            #expect(try Self.mean(anticlockwise, rows: 36..<64, columns: 0..<32) < 5)
            let half = try turned(3, littleEndian: littleEndian)
            #expect(half.width == 64)
            #expect(try Self.mean(half, rows: 0..<32, columns: 36..<64) < 5)
        }
    }

    /// A PNG's transparent parts are white paper, not black.
    @Test func transparencyIsPaper() throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = 4
        image.height = 2
        image.format = UInt32(PNG_FORMAT_GA)
        // Top row black and opaque, bottom row black and transparent.
        let pixels: [UInt8] = [0, 255, 0, 255, 0, 255, 0, 255, 0, 0, 0, 0, 0, 0, 0, 0]
        var size = 0
        #expect(png_image_write_to_memory(&image, nil, &size, 0, pixels, 0, nil) != 0)
        var png = [UInt8](repeating: 0, count: size)
        #expect(png_image_write_to_memory(&image, &png, &size, 0, pixels, 0, nil) != 0)
        let decoded = try GrayImage.png(Array(png[0..<size]))
        #expect(decoded.pixels == [0, 0, 0, 0, 255, 255, 255, 255])
    }

    /// A PDF of two pages is two images, each scaled to the longest side asked for and labelled with its page (that
    /// they go in the PDF's order, ScanCommandTests.aPDFsPagesGoInOrder shows).
    @Test func aPDFIsAnImagePerPage() throws {
        let pages = try ScanPage.load([Self.pdf], longest: 1000)
        #expect(pages.count == 2)
        #expect(pages.allSatisfy { $0.height == 1000 && abs(Double($0.width) / 1000 - 210 / 297) < 0.005 })
        #expect(pages[0].image != pages[1].image)
        #expect(pages[1].label == "amazing-grace.pdf page 2, \(pages[1].width)×1000 PNG")
    }

    /// Files that are not pages say so, with their name and what was expected.
    @Test func whatIsNotAPageIsRefused() throws {
        let text = try Self.file(Array("not a picture".utf8), "notes.txt")
        #expect(throws: ScanError.self) { try ScanPage.load([text]) }
        do {
            _ = try ScanPage.load([text])
        } catch {
            #expect(
                error.kind == .input && error.description == "\(text): not a JPEG, PNG or PDF: expected a photograph or a PDF of the pages")
        }
        let fake = try Self.file(Array("%PDF-1.7 truncated".utf8), "broken.pdf")
        do {
            _ = try ScanPage.load([fake])
            Issue.record("a broken PDF was read")
        } catch {
            #expect(error.kind == .input && error.description.hasPrefix("\(fake): pdftoppm cannot render it (status 1): "), "\(error)")
        }
        do {
            _ = try ScanPage.load(["/nonexistent/page.jpg"])
        } catch {
            #expect(error.kind == .missing)
        }
    }
}
