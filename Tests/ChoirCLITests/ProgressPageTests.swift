import ChoirTestSupport
import Foundation
import Testing

@testable import ChoirPractice

/// `choir history SCORE --html FILE`: a piece's progress as plots, read as text and as headless Chromium draws it.
struct ProgressPageTests {
    /// Four tenor sessions a day apart, each right in four more measures (25% to 100%), every note a tenth over the
    /// bass and sung nearer pure each time (14 cents wide to 0); and one alto session.
    static func plantedHistory() throws -> String {
        let data = try PracticeCommandTests.dataHome()
        let history = try PracticeHistory(path: data + "/choir/history.sqlite")
        func store(_ report: SessionReport, day: Int) throws {
            let id = try history.begin(report, started: Date(timeIntervalSince1970: 1_793_000_000 + Double(day) * 86_400))
            try history.record(report.results, trace: [], session: id)
            try history.finish(session: id)
        }
        for session in 0..<4 {
            try store(
                PlantedSession.make { result in
                    result.note.others = [ExpectedNote.Other(line: "Bass", midi: result.note.midi - 16)]
                    result.medianCents = -14 * Double(session) / 3
                    if result.note.measureIndex >= 4 * (session + 1) { result.verdict = .wrong }
                }, day: session)
        }
        var alto = PlantedSession.make()
        alto.part = "Alto"
        try store(alto, day: 4)
        try PlantedSession.musicXML.write(toFile: data + "/" + PlantedSession.file, atomically: true, encoding: .utf8)
        return data
    }

    @Test func thePageHoldsEachLinesPlots() throws {
        let data = try Self.plantedHistory(), html = data + "/progress.html"
        let run = try CLI.run(["history", "piece.musicxml", "--html", html], environment: ["XDG_DATA_HOME": data], directory: data)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Piece — piece.musicxml\n  Tenor\n    #1 "), "\(run.stdout)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<title>choir: Piece — progress</title>"))
        #expect(
            page.contains(
                "<section class=\"line\" id=\"line-1\">\n<h2>Tenor</h2>\n<p>4 sessions from 2026-10-26 to 2026-10-29; "
                    + "the last: 100.0% (16 of 16 notes).</p>"))
        #expect(page.contains("<section class=\"line\" id=\"line-2\">\n<h2>Alto</h2>\n<p>1 session from 2026-10-30 to 2026-10-30;"))
        let tenor = String(page[page.range(of: "id=\"line-1\"")!.lowerBound..<page.range(of: "id=\"line-2\"")!.lowerBound])
        let accuracies = tenor.matches(of: /<circle class="session"[^>]*><title>([^<]*)<\/title>/).map { String($0.1) }
        #expect(
            accuracies == [
                "#1 2026-10-26: 25.0% (4 of 16 notes)", "#2 2026-10-27: 50.0% (8 of 16 notes)", "#3 2026-10-28: 75.0% (12 of 16 notes)",
                "#4 2026-10-29: 100.0% (16 of 16 notes)",
            ])
        #expect(tenor.matches(of: /<rect class="cell"/).count == 64)
        #expect(
            tenor.contains("<title>m. 5 in #1: 0% (0 of 1 notes)</title>")
                && tenor.contains("<title>m. 5 in #2: 100% (1 of 1 notes)</title>"))
        let thirds = tenor.matches(of: /<title>(#\d: major thirds over the bass, from pure [^<]*)<\/title>/).map { String($0.1) }
        #expect(
            thirds == [
                "#1: major thirds over the bass, from pure +13.7 cents", "#2: major thirds over the bass, from pure +9.0 cents",
                "#3: major thirds over the bass, from pure +4.4 cents", "#4: major thirds over the bass, from pure -0.3 cents",
            ])
        #expect(tenor.contains("<span style=\"background:#444444\"></span>from the written pitch"))
        #expect(!page.contains("<script") && !page.contains("href="))

        // As drawn: the accuracy line climbs from left to right, the heat map has 24 red measures and 56 green ones
        // (the alto's included), and the thirds come down to pure.
        let image = try PNGImage.screenshot(of: html, width: 1000, height: 2200, folder: data)
        func leftAndRight(_ pixels: [(x: Int, y: Int)]) -> (left: Double, right: Double) {
            let xs = pixels.map(\.x), span = (xs.max() ?? 0) - (xs.min() ?? 0)
            func meanY(_ keep: (Int) -> Bool) -> Double {
                let ys = pixels.filter { keep($0.x) }.map { Double($0.y) }
                return ys.reduce(0, +) / Double(max(1, ys.count))
            }
            return (meanY { $0 < xs.min()! + span / 10 }, meanY { $0 > xs.max()! - span / 10 })
        }
        let accuracy = image.pixels(near: (0x1f, 0x6f, 0xb4))
        #expect(accuracy.count > 1000, "\(accuracy.count) accuracy pixels")
        let climb = leftAndRight(accuracy)
        #expect(climb.left - climb.right > 100, "the accuracy line runs from y \(climb.left) to \(climb.right)")
        let red = image.pixels(near: (184, 46, 46)).count, green = image.pixels(near: (46, 184, 46)).count
        #expect(abs(Double(red) / 256 - 24) < 3 && abs(Double(green) / 256 - 56) < 6, "\(red) red and \(green) green cell pixels")
        let third = image.pixels(near: (0xd6, 0x27, 0x28), tolerance: 20)
        let descent = leftAndRight(third)
        #expect(third.count > 200 && descent.right - descent.left > 30, "\(third.count) pixels, from y \(descent.left) to \(descent.right)")
    }

    /// The plots' x axis is the date: sessions on days 0, 1 and 10 sit at 0, a tenth and the whole of its width,
    /// two sessions an hour apart nearly together, and the labels are days; within one day, hours.
    @Test func theAxisIsTheDate() throws {
        let start = Date(timeIntervalSince1970: 1_793_000_000)
        let utc = TimeZone(identifier: "UTC")!
        func entries(_ offsets: [Double]) -> [(session: PracticeHistory.Session, report: SessionReport)] {
            offsets.enumerated().map { index, offset in
                let report = PlantedSession.make()
                let session = PracticeHistory.Session(
                    id: Int64(index + 1), score: PlantedSession.file, hash: nil, path: PlantedSession.file, title: "Piece", part: "Tenor",
                    started: start.addingTimeInterval(offset), tempo: 60, notes: 16, correct: 4 * (index + 1), passes: 1, finished: true,
                    kind: .file, transpose: 0, range: nil, seconds: 32, sung: true)
                return (session, report)
            }
        }
        func accuracy(_ page: String) -> String {
            String(page[page.range(of: "class=\"accuracy\"")!.lowerBound..<page.range(of: "class=\"heatmap\"")!.lowerBound])
        }
        func centres(_ page: String) -> [Double] {
            accuracy(page).matches(of: /<circle class="session" cx="([0-9.]+)"/).map { Double($0.1)! }
        }
        func labels(_ page: String) -> [String] {
            accuracy(page).matches(of: /<text class="date"[^>]*>([^<]*)<\/text>/).map { String($0.1) }
        }
        let days = ProgressPage.render(score: PlantedSession.file, entries([0, 86_400, 864_000, 864_000 + 3600]), timeZone: utc)
        let x = centres(days)
        #expect(x.count == 4 && x[0] == 44 && abs(x[3] - 730) < 0.1, "\(x)")
        let fraction = (x[1] - x[0]) / (x[2] - x[0])
        #expect(abs(fraction - 0.1) < 0.001, "\(x)")
        #expect(x[3] - x[2] < 5)
        // The first and last days, and every other day between that leaves them room.
        #expect(labels(days) == ["10-26", "11-05", "10-29", "10-31", "11-02", "11-04"], "\(labels(days))")
        let hours = ProgressPage.render(score: PlantedSession.file, entries([0, 1800, 7200]), timeZone: utc)
        #expect(labels(hours) == ["07:33", "09:33", "08:00", "09:00", "2026-10-26"], "\(labels(hours))")
        let one = ProgressPage.render(score: PlantedSession.file, entries([0]), timeZone: utc)
        #expect(centres(one) == [387] && one.contains(">2026-10-26</text>"))
    }

    @Test func aPageNeedsAPractisedScore() throws {
        let data = try Self.plantedHistory()
        let noScore = try CLI.run(["history", "--html", data + "/p.html"], environment: ["XDG_DATA_HOME": data])
        #expect(noScore.status == 64)
        #expect(noScore.stderr.hasPrefix("Error: --html needs a SCORE: expected `choir history SCORE --html FILE`\n"))
        let other = data + "/other.musicxml"
        try PlantedSession.musicXML.replacingOccurrences(of: "Piece", with: "Other").write(toFile: other, atomically: true, encoding: .utf8)
        let unpractised = try CLI.run(["history", other, "--html", data + "/p.html"], environment: ["XDG_DATA_HOME": data])
        #expect(unpractised.status == 66 && unpractised.stdout.isEmpty)
        #expect(unpractised.stderr == "choir: \(other): no sessions to draw: expected a score practised at least once\n")
        let missing = try CLI.run(["history", "nowhere.musicxml", "--html", data + "/p.html"], environment: ["XDG_DATA_HOME": data])
        #expect(missing.status == 66 && missing.stderr.hasPrefix("choir: nowhere.musicxml: no such file"))
        #expect(!FileManager.default.fileExists(atPath: data + "/p.html"))
    }
}
