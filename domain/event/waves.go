package event

// CausePickingWaves: a picking wave reserved, released or re-reserved
// stock (its creation, a short task).
const CausePickingWaves = "pickingWaves"
