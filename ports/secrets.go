package ports

import "github.com/shopstock/inventory/domain/user"

// Secrets holds the service's secret, which is kept outside storage
// (INVENTORY_SECRET_KEY). What storage keeps to check a user's key, for
// Basic and for Digest alike, and the webhooks' signing secrets, are made
// and read only here, and are useless without the secret: a copy of storage alone (a file, a backup, a
// replica) lets nobody authenticate, and gives nothing to guess a key
// against.
type Secrets interface {
	// Credentials makes what storage keeps for the key of the user name:
	// a check of the key, and with digest what Digest needs (H(name:realm:key)
	// per algorithm).
	Credentials(name, key string, digest bool) (user.Credentials, error)
	// CheckKey tells whether key is the key c was made for, in constant time.
	CheckKey(name string, c user.Credentials, key string) bool
	// DigestHA1 returns H(name:realm:key) for alg from c; false when c has
	// none (Digest off) or it does not open.
	DigestHA1(name string, c user.Credentials, alg user.DigestAlgorithm) (string, bool)
	// Reseal brings c under the current secret: what was kept before
	// secrets, or under the previous secret during a rotation, is sealed
	// anew. It tells whether anything changed, and fails when c was sealed
	// with a secret it does not have.
	Reseal(name string, c user.Credentials) (user.Credentials, bool, error)
	// SealWebhookSecret makes what storage keeps of a webhook's signing
	// secret, which the deliveries need back.
	SealWebhookSecret(secret string) string
	// OpenWebhookSecret is the signing secret that stored holds: a sealed
	// one opened, or one kept in the clear from before (until the next
	// start seals it) as it is. It fails when stored was sealed with a
	// secret it does not have.
	OpenWebhookSecret(stored string) (string, error)
	// ResealWebhookSecret brings a stored signing secret under the current
	// secret, as Reseal does for users, and tells whether it changed.
	ResealWebhookSecret(stored string) (string, bool, error)
	// Key derives a key for purpose (signing Digest nonces, console forms)
	// from the secret, the same on every instance that has it.
	Key(purpose string) []byte
}
