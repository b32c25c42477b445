import ChoirPlayback
import ChoirPractice

/// The line of the live cues' and live view's tests: 3/4 at ♩ = 80 (a bar is 2.25 s), the singer rests four bars,
/// sings a phrase of two notes, rests, and sings a phrase of three. In A♭ major.
public enum RestingAlto {
    public static let bar = 2.25

    public static let notes: [ExpectedNote] = {
        func note(_ index: Int, _ onset: Double, _ midi: Int, after previous: Int?) -> ExpectedNote {
            ExpectedNote(
                index: index, measure: "\(Int(onset / bar) + 1)", measureIndex: Int(onset / bar), onset: onset, duration: 0.75,
                midi: midi, isEntrance: true, previousMIDI: previous, key: -4)
        }
        return [
            note(0, 9.0, 68, after: nil), note(1, 9.75, 70, after: 68),
            note(2, 12.0, 73, after: nil), note(3, 12.75, 72, after: 73), note(4, 13.5, 70, after: 72),
        ]
    }()

    public static let lyrics = [
        (9.0, "Sing", false), (9.75, "now", false), (12.0, "Through", false), (12.75, "ma", true), (13.5, "ny", false),
    ]
    .map { Schedule.SungSyllable(start: $0.0, text: $0.1, continues: $0.2) }
}
