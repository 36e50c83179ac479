package event

// CauseCountsApply: a count was applied, correcting the books by what it
// found (and releasing reservations the stock no longer carries).
const CauseCountsApply = "counts/apply"
