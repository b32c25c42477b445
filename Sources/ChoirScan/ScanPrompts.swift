/// What choir asks the model, pass by pass.
enum ScanPrompts {
    static let system = """
        You transcribe printed vocal and choral sheet music from photographs and scans, exactly as printed. You never \
        invent or "improve" music that is not on the page, and you say so wherever the page is unclear.
        """

    /// The first pass: everything on the pages, in words, before any MusicXML.
    static func extract(pages: Int, part: String?) -> String {
        let pagesText = pages == 1 ? "This image is one page" : "These \(pages) images are the pages, in order,"
        return """
            \(pagesText) of one piece. Before writing any MusicXML, describe everything on them that is needed to \
            write the piece out, system by system and measure by measure:
            - the title, composer, lyricist and any other heading;
            - every staff, the lines (voice parts) it carries with their names as printed (Soprano, Alto, Tenor, \
            Bass, Piano…), and which lines share a staff (stems up and down);
            - clefs (with an 8 below for a tenor line), key signatures and every change, time signatures and every \
            change, tempo words and metronome marks;
            - a pickup (anacrusis) measure, if the piece starts with one;
            - for each measure of each line: every note (letter, accidental as it sounds, octave, duration and dots), \
            every rest, ties, tuplets, and the lyrics under it syllable by syllable, with hyphens, extenders and the \
            verse each line of words belongs to;
            - repeat signs, first and second endings, D.C., D.S., Fine and Coda;
            - dynamics and breath marks.
            Number the measures as the page does. Mark every place you cannot read with certainty with UNCLEAR, \
            saying the measure, the line and what is unclear.
            """ + singer(part)
    }

    /// The second pass: the MusicXML itself.
    static func write(part: String?) -> String {
        """
        Now write the whole piece as one MusicXML 4.0 document (score-partwise), from the pages and your description.
        - One <part> per sung line, named as printed (two lines on one staff are two parts: Soprano and Alto); any \
        accompaniment as a part of its own.
        - <divisions> in the first measure of each part; clef, key and time there and wherever they change.
        - The notes and rests of every measure add up exactly to its time signature, in every part, except a pickup \
        measure, which is marked implicit="yes", and a last measure that completes it.
        - Each sung note carries its syllable: <lyric number="1"> with <syllabic> and <text>, one number per verse.
        - Ties as <tie> with <tied>; repeats and endings as <barline> with <repeat> and <ending>; the tempo as \
        <sound tempo="…"/>.
        - In each measure where something is unclear, write a comment <!-- doubtful: what is unclear --> inside \
        that <measure> of that part.
        Reply with the MusicXML document alone, from <?xml to </score-partwise>, without explanations.
        """ + singer(part)
    }

    /// A repair pass: what choir's reader found, to be put right from the pages.
    static func repair(_ findings: [String]) -> String {
        """
        choir's MusicXML reader found these problems in your MusicXML:
        \(findings.map { "- \($0)" }.joined(separator: "\n"))
        Look at the pages again, correct these places, and reply with the whole corrected MusicXML document alone, \
        from <?xml to </score-partwise>. Keep everything that was right, and keep a <!-- doubtful: … --> comment \
        wherever a place is still unclear.
        """
    }

    private static func singer(_ part: String?) -> String {
        part.map { "\nThe singer this is for sings the \($0) line: take particular care with it." } ?? ""
    }
}
