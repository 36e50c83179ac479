package bootstrap

import (
	"context"
	"errors"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/mail"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/ports"
)

// dispatchInterval is how often the outbox is looked at.
const dispatchInterval = time.Second

// newMailer sends over SMTP when INVENTORY_SMTP_URL is set and notes mails
// in the debug log otherwise, so that the outbox drains either way.
func newMailer(c Config, log *zap.Logger) (ports.Mailer, error) {
	if c.SMTPURL == "" {
		log.Info("no SMTP server configured (INVENTORY_SMTP_URL): status mails are not sent")
		return mail.NewLog(log.Named("mail")), nil
	}
	return mail.NewSMTP(c.SMTPURL, c.MailFrom, mail.WithTLSPolicy(c.SMTPTLS), mail.WithAuth(c.SMTPAuth))
}

// runMailDispatcher sends the outbox in the background from start to stop.
// Every instance runs one; the outbox's leases keep them from sending a
// mail twice.
func runMailDispatcher(lc fx.Lifecycle, app *application.App, mailer ports.Mailer, log *zap.Logger) {
	d := app.MailDispatcher(mailer)
	log = log.Named("mail")
	every(lc, dispatchInterval, func(ctx context.Context) { dispatchDue(ctx, d, log) })
}

// dispatchDue sends rounds of mails until the due ones are done.
func dispatchDue(ctx context.Context, d *application.MailDispatcher, log *zap.Logger) {
	for ctx.Err() == nil {
		report, err := d.DispatchOnce(ctx)
		for _, f := range report.Failures {
			log.Warn("status mail not delivered", zap.Error(f))
		}
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				log.Error("mail dispatch failed", zap.Error(err))
			}
			return
		}
		if report.Sent+report.Retrying+report.GivenUp < d.Batch {
			return
		}
	}
}
