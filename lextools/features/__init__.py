"""What people ask of a built lexicon: answers, explanations, quizzes, comparisons, exports and their
verification, the challenge record and its receipts. Features read what a build wrote (the lexicon
and its sidecar) and import only ``core``."""
