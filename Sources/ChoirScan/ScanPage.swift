import ChoirFiles
import FoundationEssentials
import Glibc

/// One page as the model is sent it: a greyscale image no larger than the model needs (a JPEG or a PNG, whichever is
/// smaller), and where it came from.
public struct ScanPage: Sendable {
    /// The file the page came from, as given.
    public var file: String
    /// Its page in a PDF; nil for a photograph.
    public var page: Int?
    /// The size of the page as read (a photograph upright) and as sent.
    public var original: (width: Int, height: Int)
    public var width: Int
    public var height: Int
    /// The image, and its media type: "image/jpeg" or "image/png".
    public var image: [UInt8]
    public var mediaType: String

    /// The longer side of a page as sent, by default: fine enough for a staff's lines and lyrics on a full page, and
    /// the most OpenAI's models look at (Claude's and Gemini's scale larger images down themselves).
    public static let defaultLongestSide = 2048
    /// JPEG quality: notes and text stay sharp; lower blurs stems and beams into the staff.
    static let quality = 85

    /// `data:image/jpeg;base64,…`: how a chat-completions request carries an image.
    public var dataURL: String { "data:\(mediaType);base64," + Data(image).base64EncodedString() }

    /// "hymn.pdf page 2, 1448×2048 PNG" or "IMG_2041.jpg, 1448×2048 JPEG (from 3024×4032)".
    public var label: String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let from = original == (width, height) ? "" : " (from \(original.width)×\(original.height))"
        let format = mediaType == "image/png" ? "PNG" : "JPEG"
        return "\(name)\(page.map { " page \($0)" } ?? ""), \(width)×\(height) \(format)\(from)"
    }

    /// The pages of `files` in order: a JPEG or PNG photograph is one page, a PDF one per page (rendered by
    /// poppler's pdftoppm). Each is turned upright, greyed and scaled to at most `longest` pixels on its longer side.
    public static func load(_ files: [String], longest: Int = defaultLongestSide) throws(ScanError) -> [ScanPage] {
        var pages: [ScanPage] = []
        for file in files {
            guard let bytes = FileName.contents(file) else {
                let reason = FileName.exists(file) ? "cannot be read" : "no such file"
                throw ScanError(.missing, "\(file): \(reason): expected a photograph (JPEG, PNG) or a PDF of the pages")
            }
            do {
                switch Kind(bytes) {
                case .jpeg:
                    let (image, size) = try GrayImage.jpeg(bytes, atLeast: longest)
                    pages.append(try page(image, file: file, size: size, longest: longest))
                case .png:
                    pages.append(try page(GrayImage.png(bytes), file: file, longest: longest))
                case .pdf:
                    for (number, image) in try PDFPages.render(file, longest: longest).enumerated() {
                        pages.append(try page(image, file: file, number: number + 1, longest: longest))
                    }
                case nil:
                    throw GrayImage.Failure(message: "not a JPEG, PNG or PDF: expected a photograph or a PDF of the pages")
                }
            } catch let error as ScanError {
                throw error
            } catch let error as GrayImage.Failure {
                throw ScanError(.input, "\(file): \(error.message)")
            } catch {
                throw ScanError(.input, "\(file): \(error)")
            }
        }
        return pages
    }

    /// The page of `image`, read from `file` (its page `number` in a PDF) where it is `size` pixels (the image's
    /// own unless decoding scaled it already).
    private static func page(
        _ image: GrayImage, file: String, number: Int? = nil, size: (width: Int, height: Int)? = nil, longest: Int
    ) throws(GrayImage.Failure) -> ScanPage {
        let sent = image.fitting(longest)
        let (jpeg, png) = (try sent.jpeg(quality: quality), try sent.png())
        return ScanPage(
            file: file, page: number, original: size ?? (image.width, image.height), width: sent.width, height: sent.height,
            image: png.count < jpeg.count ? png : jpeg, mediaType: png.count < jpeg.count ? "image/png" : "image/jpeg")
    }

    /// What a page file is, by its first bytes.
    enum Kind {
        case jpeg, png, pdf

        init?(_ bytes: [UInt8]) {
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
                self = .jpeg
            } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
                self = .png
            } else if bytes.prefix(1024).firstRange(of: Array("%PDF-".utf8)) != nil {
                self = .pdf
            } else {
                return nil
            }
        }
    }
}
