import ChoirPractice
import ChoirScore
import ChoirTestSupport
import Foundation
import Testing

/// Intonation against the chord: each sung note against equal temperament and against the pure interval over the
/// other lines' bass, from known notes and from takes whose intervals were sung pure or tempered on purpose.
struct ChordIntonationTests {
    @Test func pureIntervalsAgainstEqualTemperament() {
        let offsets = ChordIntonation.Interval.allCases.map { ($0.name, ($0.pureOffset * 100).rounded() / 100) }
        #expect(offsets.map(\.0) == ["unison", "minor third", "major third", "fourth", "fifth", "minor sixth", "major sixth"])
        #expect(offsets.map(\.1) == [0, 15.64, -13.69, -1.96, 1.96, 13.69, -15.64])
    }

    static func result(_ midi: Int, cents: Double, others: [ExpectedNote.Other], verdict: Verdict = .correct) -> NoteResult {
        NoteResult(
            note: ExpectedNote(
                index: 0, measure: "3", measureIndex: 2, onset: 0, duration: 2, midi: midi, isEntrance: true, others: others),
            verdict: verdict, medianCents: cents, onsetError: 0, inTunePercent: 90)
    }

    @Test func aNoteAgainstTheOtherLinesBass() throws {
        let chord = [ExpectedNote.Other(line: "Alto", midi: 55), ExpectedNote.Other(line: "Bass", midi: 48)]
        // E4 over the bass's C3, sung 12 cents low of the piano's: a tenth, 1.7 cents wider than pure.
        let third = try #require(ChordIntonation.note(Self.result(64, cents: -12, others: chord)))
        #expect(third.interval == .majorThird && third.above && third.bass.line == "Bass")
        #expect(third.equalCents == -12 && abs(third.pureCents - 1.69) < 0.01)
        #expect(third.description == "major third over the Bass's C3")
        // A bass singing C3 3 cents sharp under the tenor's E3 narrows the third to 397 cents: 10.7 wider than pure.
        let under = try #require(ChordIntonation.note(Self.result(48, cents: 3, others: [ExpectedNote.Other(line: "Tenor", midi: 52)])))
        #expect(under.interval == .majorThird && !under.above && abs(under.pureCents - 10.69) < 0.01)
        #expect(under.description == "major third under the Tenor's E3")
        #expect(
            ChordIntonation.note(Self.result(60, cents: 5, others: [ExpectedNote.Other(line: "Bass", midi: 48)]))?.description
                == "octave with the Bass's C3")
        // No chord: alone, a second over the bass (no pure tuning a choir agrees on), a wrong note, an octave.
        #expect(ChordIntonation.note(Self.result(64, cents: 0, others: [])) == nil)
        #expect(ChordIntonation.note(Self.result(50, cents: 0, others: chord)) == nil)
        #expect(ChordIntonation.note(Self.result(64, cents: -250, others: chord, verdict: .wrong)) == nil)
        #expect(ChordIntonation.note(Self.result(64, cents: -1200, others: chord, verdict: .octave)) == nil)
    }

    @Test func tendenciesSayWhatIsConsistent() {
        let bass = [ExpectedNote.Other(line: "Bass", midi: 48)]
        func tendency(_ cents: [Double], midi: Int = 64) -> ChordIntonation.Tendency? {
            ChordIntonation.tendencies(cents.map { Self.result(midi, cents: $0, others: bass) }).first
        }
        #expect(
            tendency([0, 1, -1, 0, 2, 0, -2, 0, 1])?.summary()
                == "Your major thirds over the bass are 14 cents wide (9 notes; +0 cents from equal temperament)")
        #expect(
            tendency([-14, -12, -15, -13, -16])?.summary()
                == "Your major thirds over the bass are pure, 0 cents off on average (5 notes; -14 cents from equal temperament)")
        #expect(
            tendency([-30, 10, -20, 5, -15])?.summary()
                == "Your major thirds over the bass vary: 4 cents wide on average, from 16 cents narrow to 24 cents wide (5 notes; -10 cents from equal temperament)"
        )
        // Fewer than four notes say nothing.
        #expect(tendency([0, 0, 0]) == nil)
    }

    /// Sings a soprano line with each note's planted distance from equal temperament, as a steady voice with
    /// vibrato would: `voice` picks the vowel and the vibrato.
    struct IntervalSinger: PlantingSinger {
        var cents: [Double]
        var voice: Int
        var sampleRate = 44100.0

        func plan(_ notes: [ExpectedNote], kinds: [PlantedMistake]) -> [Int: PlantedMistake] { [:] }

        func perform(_ notes: [ExpectedNote], mistakes: [Int: PlantedMistake], length: Double) -> [Float] {
            var singer = SyntheticVoice(sampleRate: sampleRate)
            singer.seed = UInt64(voice + 11)
            singer.driftCents = 0
            if voice == 1 {
                singer.formants = [(270, 60), (2290, 120), (3010, 200)]  // "ee"
                singer.vibratoRate = 6.3
            }
            return singer.render(
                notes.map { note in
                    SyntheticVoice.Note(
                        start: note.onset + 0.02, duration: note.duration - 0.06, frequency: 440 * pow(2, Double(note.midi - 69) / 12),
                        detuneCents: cents[note.index], vibratoCents: voice == 1 ? 45 : 25)
                }, length: length)
        }
    }

    /// Four chords five times over, the soprano a tenth, a twelfth, a minor third and a major sixth over the bass;
    /// the thirds and fifths sung pure, the minor thirds and sixths as the piano plays them.
    static func plantedTake(voice: Int, bleed: PlantedTake.Bleed) throws -> (results: [NoteResult], planted: [Double]) {
        let chords: [(soprano: Int, bass: Int, interval: ChordIntonation.Interval, pure: Bool)] = [
            (64, 48, .majorThird, true), (62, 43, .fifth, true), (60, 45, .minorThird, false), (62, 41, .majorSixth, false),
        ]
        let sung = (0..<20).map { chords[$0 % 4] }
        let soprano = sung.enumerated().map { ScoreWriter.Note(onset: 2 * Double($0.offset), duration: 1.5, midi: $0.element.soprano) }
        let bass = sung.enumerated().map { ScoreWriter.Note(onset: 2 * Double($0.offset), duration: 2, midi: $0.element.bass) }
        let xml = ScoreWriter.musicXML(
            title: "Chords", parts: [ScoreWriter.Part(name: "Soprano", notes: soprano), ScoreWriter.Part(name: "Bass", notes: bass)])
        let score = try ScoreReader.read(data: Array(xml.utf8), file: "chords.musicxml")
        let planted = sung.map { $0.pure ? $0.interval.pureOffset : 0 }
        let take = PlantedTake(
            name: "chords", set: .checking, score: score, part: "Soprano", singer: IntervalSinger(cents: planted, voice: voice))
        return (try take.judge(bleed: bleed).results, planted)
    }

    /// Two voices on their own, and the second again with the other lines through loudspeakers 6 dB under it.
    @Test(arguments: [(0, false), (1, false), (1, true)])
    func plantedPureAndTemperedIntervals(voice: Int, loudspeakers: Bool) throws {
        let (results, planted) = try Self.plantedTake(voice: voice, bleed: loudspeakers ? .loudspeakers(decibels: -6, room: 3) : .none)
        let notes = results.compactMap(ChordIntonation.note)
        #expect(notes.count == 20)
        let errors = notes.map { abs($0.equalCents - planted[$0.note.index]) }
        print(
            "voice \(voice)\(loudspeakers ? " with loudspeakers" : ""): planted intervals read within "
                + "\(String(printf: "%.2f", errors.reduce(0, +) / Double(errors.count))) cents on average, \(String(printf: "%.2f", errors.max()!)) at worst"
        )
        #expect(errors.allSatisfy { $0 <= 3 }, "\(errors)")
        let tendencies = ChordIntonation.tendencies(results)
        #expect(tendencies.map(\.interval) == [.minorThird, .majorThird, .fifth, .majorSixth])
        #expect(tendencies.map(\.notes) == [5, 5, 5, 5])
        // Sung as the piano plays them, minor thirds are 15.6 cents narrow of pure and major sixths 15.6 wide; the
        // thirds and fifths sung pure are pure.
        for (tendency, expected) in zip(tendencies, [-15.64, 0, 0, 15.64]) {
            #expect(abs(tendency.pureCents - expected) <= 1.5, "\(tendency.summary())")
        }
        let words = tendencies.map { $0.summary().components(separatedBy: " (")[0] }
        #expect(words[0] == "Your minor thirds over the bass are \(Int((-tendencies[0].pureCents).rounded())) cents narrow")
        #expect(words[1] == "Your major thirds over the bass are pure, 0 cents off on average")
        #expect(words[2] == "Your fifths over the bass are pure, 0 cents off on average")
        #expect(words[3] == "Your major sixths over the bass are \(Int(tendencies[3].pureCents.rounded())) cents wide")
    }

    /// A session of C4s a tenth over the bass's G♯2, sung as the piano plays them: every report says the thirds are
    /// wide, and the page's roll says it of each note.
    @Test func everyReportSaysIt() throws {
        var report = PlantedSession.make { result in
            result.note.others = [ExpectedNote.Other(line: "Bass", midi: result.note.midi - 16)]
            result.medianCents = 0
        }
        report.results = report.results.filter { $0.note.midi == 60 }
        let sentence = "Your major thirds over the bass are 14 cents wide (11 notes; +0 cents from equal temperament)"
        #expect(TerminalReport.render(report, colour: false, verbose: true).contains("\nAgainst the chord:\n  \(sentence)\n"))
        let page = HTMLReport.render(report)
        #expect(page.contains("<h2>Against the chord</h2>\n<ul id=\"chord\">\n<li>\(sentence)</li>\n</ul>"))
        #expect(page.contains("m. 1 beat 1: C4 sung C4 +0¢, 10 ms late — correct; major third over the Bass's G♯2: 14 cents wide of pure"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReport.render(report).utf8)) as? [String: Any])
        let chord = try #require((json["chord"] as? [[String: Any]])?.first)
        #expect(chord["interval"] as? String == "major third" && chord["notes"] as? Int == 11 && chord["pure_cents"] as? Double == 13.7)
        #expect(chord["off"] as? Bool == true && chord["summary"] as? String == sentence)
    }
}
