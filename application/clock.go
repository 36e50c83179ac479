package application

import "time"

// Now is the time by the service's clock, for adapters that show what
// depends on the date (a lot is expired from the day after its
// best-before date).
func (a *App) Now() time.Time { return a.clock.Now() }
