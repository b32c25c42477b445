import ChoirBase
import ChoirPractice
import FoundationEssentials
import Glibc

extension HistoryRecovery {
    /// Copies every session still readable from the damaged history `file` into `history`, with its notes and the
    /// marks, library entries, plans and plan runs, and says what came back and what the damage took. A file that
    /// is not there, or is `history` itself, is refused before anything is read.
    public static func recover(from file: String, into history: PracticeHistory) throws(PracticeHistory.Failure) -> String {
        guard FileManager.default.fileExists(atPath: file) else {
            throw PracticeHistory.Failure(
                path: file, kind: .missing, reason: "no such file: expected a damaged history that choir set aside")
        }
        guard realpath(file, nil).map({ String(cString: $0) }) != realpath(history.path, nil).map({ String(cString: $0) }) else {
            throw PracticeHistory.Failure(
                path: file, kind: .current, reason: "this is the current history: expected a damaged one that choir set aside")
        }
        let source = try DamagedHistoryReader(path: file)
        let recovered = try history.recover(from: source)
        let entries = try Library(path: history.path).recover(from: source)
        let plans = try RehearsalPlans(path: history.path).recover(from: source, sessions: recovered.sessionNumbers)
        var said =
            "Recovered from \(file): \(String(count: recovered.sessions, "session")) (\(String(count: recovered.results, "note")), "
            + "\(String(count: recovered.tracePoints, "trace point"))), \(String(count: recovered.marks, "mark")), "
            + "\(String(count: entries, "library entry", plural: "library entries")), \(String(count: plans.plans, "plan")) "
            + "and \(String(count: plans.runs, "plan run")).\n"
        if recovered.alreadyThere > 0 { said += "\(String(count: recovered.alreadyThere, "session")) from it were here already.\n" }
        if recovered.damagedStretches > 0 || recovered.orphaned > 0 {
            said +=
                "Lost to the damage: the rows on \(String(count: recovered.damagedStretches, "damaged stretch", plural: "damaged stretches"))"
                + (recovered.orphaned > 0
                    ? ", and \(recovered.orphaned) notes and trace points of sessions whose own record was on one" : "")
                + ".\n"
        }
        return said
    }
}
