// Placeholder until its family lands (issue 6).
