import Foundation
import Testing

/// The HTML report as a browser shows it: headless Chromium opens the page offline and takes a screenshot,
/// which must show the piano roll (notes in their verdicts' colours) with the sung pitch drawn over it.
struct HTMLReportBrowserTests {
    /// A verdict's colour as the page draws notes: at 75% opacity over the roll's light background.
    static func noteColour(_ hex: Int) -> (Int, Int, Int) {
        let background = 0xF4
        func blend(_ channel: Int) -> Int { (3 * channel + background) / 4 }
        return (blend(hex >> 16), blend(hex >> 8 & 0xFF), blend(hex & 0xFF))
    }

    @Test func screenshotShowsThePianoRoll() throws {
        let data = try PracticeCommandTests.dataHome()
        let html = data + "/report.html"
        let practice = try CLI.run(
            [
                "practice", CLI.example, "--part", "tenor", "--input", PracticeCommandTests.take, "--output", "none",
                "--no-history", "--html", html,
            ])
        #expect(practice.status == 0, "\(practice.stderr)")

        let image = try PNGImage.screenshot(of: html, width: 1400, height: 1000, folder: data)
        #expect(image.width == 1400 && image.height == 1000)
        // The demo take: 24 notes correct (green), one flat (blue), three late (amber).
        let correct = image.pixels(near: Self.noteColour(0x3a9d5d))
        let flat = image.pixels(near: Self.noteColour(0x3b7dd8))
        let late = image.pixels(near: Self.noteColour(0xc9a227))
        #expect(correct.count > 3000, "\(correct.count) green note pixels")
        #expect(flat.count > 300, "\(flat.count) blue note pixels")
        #expect(late.count > 600, "\(late.count) amber note pixels")
        // The sung pitch is a dark line that runs through the notes' rows, across the roll.
        let top = correct.map(\.y).min() ?? 0, bottom = correct.map(\.y).max() ?? 0
        let left = correct.map(\.x).min() ?? 0, right = correct.map(\.x).max() ?? 0
        let trace = image.pixels(near: (0x11, 0x11, 0x11), tolerance: 40).filter {
            (top - 12...bottom + 12).contains($0.y) && (left...right).contains($0.x)
        }
        #expect(trace.count > 1500, "\(trace.count) trace pixels")
        #expect(Set(trace.map { $0.x / 100 }).count >= (right - left) / 100, "the trace spans the roll")
    }
}
