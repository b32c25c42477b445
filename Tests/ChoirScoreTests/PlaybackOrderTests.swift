import Testing

@testable import ChoirScore

/// Repeats and jumps unfold into the order a performer plays the measures in.
struct PlaybackOrderTests {
    /// A score with one whole note per measure; measure i (1-based) plays MIDI 59 + i, so the played
    /// pitches spell the measure order. `marks` adds markup to a measure by number.
    static func order(_ count: Int, _ marks: [Int: String]) throws -> [Int] {
        let measures = (1...count).map { number in
            (marks[number] ?? "") + ScoreFixtures.note(PitchName.name(midi: 59 + number).replacingOccurrences(of: "♯", with: "#"), 4)
        }
        let score = try ScoreFixtures.read(ScoreFixtures.partwise(measures))
        let line = score.lines[0]
        let timeline = Timeline(score)
        let notes = timeline.place(line.notes, in: score)
        // Every occurrence starts where the previous one ended.
        #expect(notes.map(\.onset) == notes.indices.map { Rational($0 * 4) })
        return notes.map { $0.midi - 59 }
    }

    static let forward = "<barline location=\"left\"><repeat direction=\"forward\"/></barline>"
    static let backward = "<barline location=\"right\"><repeat direction=\"backward\"/></barline>"
    static func backward(times: Int) -> String {
        "<barline location=\"right\"><repeat direction=\"backward\" times=\"\(times)\"/></barline>"
    }
    static func ending(_ number: String, _ type: String, location: String) -> String {
        "<barline location=\"\(location)\"><ending number=\"\(number)\" type=\"\(type)\"/></barline>"
    }
    static func sound(_ attributes: String) -> String { "<direction><sound \(attributes)/></direction>" }

    @Test func writtenOrderWithoutRepeats() throws {
        #expect(try Self.order(4, [:]) == [1, 2, 3, 4])
    }

    @Test func simpleRepeatFromTheStart() throws {
        #expect(try Self.order(3, [2: Self.backward]) == [1, 2, 1, 2, 3])
    }

    @Test func repeatWithForwardBarlineAndTimes() throws {
        #expect(try Self.order(4, [2: Self.forward, 3: Self.backward(times: 3)]) == [1, 2, 3, 2, 3, 2, 3, 4])
    }

    @Test func nestedRepeats() throws {
        let marks = [1: Self.forward, 2: Self.forward, 3: Self.backward, 4: Self.backward]
        #expect(try Self.order(5, marks) == [1, 2, 3, 2, 3, 4, 1, 2, 3, 2, 3, 4, 5])
    }

    @Test func backwardRepeatWithoutForwardGoesBackToThePreviousRepeat() throws {
        #expect(try Self.order(4, [1: Self.backward, 3: Self.backward]) == [1, 1, 2, 3, 2, 3, 4])
    }

    @Test func firstAndSecondEndings() throws {
        let marks = [
            1: Self.forward,
            3: Self.ending("1", "start", location: "left") + Self.backward + Self.ending("1", "stop", location: "right"),
            4: Self.ending("2", "start", location: "left") + Self.ending("2", "discontinue", location: "right"),
        ]
        #expect(try Self.order(5, marks) == [1, 2, 3, 1, 2, 4, 5])
    }

    @Test func threeVoltasWithSharedEnding() throws {
        let marks = [
            2: Self.ending("1, 2", "start", location: "left") + Self.backward + Self.ending("1, 2", "stop", location: "right"),
            3: Self.ending("3", "start", location: "left") + Self.ending("3", "stop", location: "right"),
        ]
        #expect(try Self.order(3, marks) == [1, 2, 1, 2, 1, 3])
    }

    @Test func daCapoAlFine() throws {
        let marks = [2: Self.sound("fine=\"yes\""), 4: Self.sound("dacapo=\"yes\"")]
        #expect(try Self.order(4, marks) == [1, 2, 3, 4, 1, 2])
    }

    @Test func dalSegnoAlCoda() throws {
        let marks = [
            2: Self.sound("segno=\"s\""), 3: Self.sound("tocoda=\"c\""), 4: Self.sound("dalsegno=\"s\""),
            5: Self.sound("coda=\"c\""),
        ]
        #expect(try Self.order(5, marks) == [1, 2, 3, 4, 2, 3, 5])
    }

    @Test func repeatsAreNotTakenAgainAfterDaCapo() throws {
        let marks = [2: Self.backward, 3: Self.sound("dacapo=\"yes\"")]
        #expect(try Self.order(3, marks) == [1, 2, 1, 2, 3, 1, 2, 3])
    }

    @Test func afterDaCapoOnlyTheLastEndingPlays() throws {
        let marks = [
            2: Self.ending("1", "start", location: "left") + Self.backward + Self.ending("1", "stop", location: "right"),
            3: Self.ending("2", "start", location: "left") + Self.ending("2", "stop", location: "right"),
            4: Self.sound("fine=\"yes\""),
            5: Self.sound("dacapo=\"yes\""),
        ]
        #expect(try Self.order(5, marks) == [1, 2, 1, 3, 4, 5, 1, 3, 4])
    }

    @Test func jumpWordsWithoutSoundAttributes() throws {
        let words = { (text: String) in "<direction><direction-type><words>\(text)</words></direction-type></direction>" }
        #expect(try Self.order(3, [1: words("Fine"), 3: words("D.C. al Fine")]) == [1, 2, 3, 1])
    }

    @Test func repeatTimesAreHonoured() throws {
        let marks = Dictionary(uniqueKeysWithValues: (1...3).map { ($0, Self.forward + Self.backward(times: 5)) })
        #expect(try Self.order(3, marks) == (1...3).flatMap { Array(repeating: $0, count: 5) })
    }

    @Test func hostileRepeatCountsAreBounded() throws {
        // Three nested hundredfold repeats would unfold to a million measures.
        let marks = [
            1: Self.forward, 2: Self.forward, 3: Self.forward + Self.backward(times: 100),
            4: Self.backward(times: 100), 5: Self.backward(times: 100),
        ]
        let measures = (1...5).map { (marks[$0] ?? "") + ScoreFixtures.note("C4", 4) }
        let score = try ScoreFixtures.read(ScoreFixtures.partwise(measures))
        #expect(Timeline(score).entries.count == PlaybackOrder.maximumMeasures)
    }
}

/// The words a singer sings where verses are written under repeats.
struct VerseTests {
    typealias F = ScoreFixtures

    /// Measure 1 is repeated with two verses under it; measure 2, the refrain, has one.
    static let score: Score = {
        func sung(_ verses: [String]) -> String {
            F.note(
                "C4", 4, extra: verses.enumerated().map { "<lyric number=\"\($0.offset + 1)\"><text>\($0.element)</text></lyric>" }.joined()
            )
        }
        return try! F.read(
            F.partwise([
                PlaybackOrderTests.forward + sung(["one", "two"]) + PlaybackOrderTests.backward, sung(["all"]),
            ]))
    }()

    static func sung(verse: Int) -> [String] {
        Timeline(score).lyrics(of: score.lines[0], verse: verse, in: score).map(\.text)
    }

    @Test func eachTimeRoundSingsTheNextVerseAndTheRefrainItsOwn() {
        #expect(Self.sung(verse: 1) == ["one", "two", "all"])
        // Starting at verse 2 there is no third verse to go on to: the repeat sings verse 2 again.
        #expect(Self.sung(verse: 2) == ["two", "two", "all"])
        // In written order, each measure once, at its verse.
        #expect(
            Timeline(Self.score, unfolded: false).lyrics(of: Self.score.lines[0], verse: 2, in: Self.score).map(\.text) == ["two", "all"])
    }

    @Test func aVerseTheScoreLacksIsNamed() {
        #expect(Self.score.problem(withVerse: 1) == nil && Self.score.problem(withVerse: 2) == nil)
        #expect(Self.score.problem(withVerse: 3) == "verse 3: expected 1 to 2, the score's verses")
        let wordless = try! F.read(F.partwise([F.note("C4", 4)]))
        #expect(wordless.problem(withVerse: 2) == "verse 2: the score has no lyrics: expected verse 1")
    }
}
