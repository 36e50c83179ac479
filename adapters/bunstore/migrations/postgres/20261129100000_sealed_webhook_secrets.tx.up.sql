-- A webhook's signing secret is sealed under the service's secret, which the
-- database does not hold, as what checks an API key is: sealed_secret keeps
-- it. The secrets kept so far stay in secret, in the clear, and go on
-- signing; the next start seals each into sealed_secret and empties secret.
ALTER TABLE webhooks ADD COLUMN sealed_secret TEXT;
