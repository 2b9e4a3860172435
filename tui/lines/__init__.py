"""The plain-line face: the whole book as sequential, labelled lines of text, for screen readers, braille
displays, dumb terminals and pipes. A face beside tui/screens: it shares the engine (grader) and the store
(tui/progress), and never imports Textual."""
