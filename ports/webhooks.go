package ports

import (
	"context"
	"time"

	"github.com/shopstock/inventory/domain/webhook"
)

// WebhookRepository stores webhooks, and their deliveries as a lease queue
// that hands out, per webhook, only the oldest unfinished delivery: a later
// event waits until the earlier one is delivered or given up.
type WebhookRepository interface {
	// Add stores w and assigns its id. Adding, saving and deleting a
	// webhook serialise with the writers of events, so that a webhook
	// receives exactly the events committed after it was created, while it
	// is enabled.
	Add(ctx context.Context, w *webhook.Webhook) error
	Get(ctx context.Context, id int64) (*webhook.Webhook, error)
	Save(ctx context.Context, w *webhook.Webhook) error
	// Delete removes the webhook with its deliveries.
	Delete(ctx context.Context, id int64) error
	List(ctx context.Context, q ListQuery) (Page[*webhook.Webhook], error)
	Deliveries(ctx context.Context, webhookID int64, q ListQuery) (Page[WebhookDelivery], error)
	LeaseQueue[WebhookAttempt]
	// Stats counts the deliveries still to make.
	Stats(ctx context.Context) (QueueStats, error)
}

// Delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is the state of one event's delivery to one webhook.
type WebhookDelivery struct {
	EventID        int64
	Type           string
	Status         string
	Attempts       int
	LastStatusCode int // 0: no response yet
	LastError      string
	NextAttemptAt  *time.Time
	DeliveredAt    *time.Time
}

// WebhookAttempt is what one delivery attempt sends, read when it is
// claimed: the webhook's current URL and secret, and the event.
type WebhookAttempt struct {
	WebhookID int64
	URL       string
	Secret    string
	Event     Event
}

// WebhookRequest is one signed POST of an event.
type WebhookRequest struct {
	URL    string
	Secret string
	// MessageID is the webhook-id header: the event id.
	MessageID string
	Timestamp time.Time
	Body      []byte
}

// WebhookSender makes one delivery attempt. It returns the response's
// status code, or an error when there was no response (refused address,
// connection failure, time-out).
type WebhookSender interface {
	Send(ctx context.Context, r WebhookRequest) (statusCode int, err error)
}

// List fields of webhooks and their deliveries.
var (
	WebhookFields = ListFields{
		"webhook.id": IntField, "webhook.url": TextField, "webhook.description": TextField,
		"webhook.enabled": BoolField, "webhook.createdAt": TimeField,
	}
	DeliveryFields = ListFields{
		"delivery.eventId": IntField, "delivery.type": TextField, "delivery.status": TextField,
		"delivery.attempts": IntField, "delivery.lastStatusCode": IntField, "delivery.lastError": TextField,
		"delivery.nextAttemptAt": TimeField, "delivery.deliveredAt": TimeField,
	}
)
