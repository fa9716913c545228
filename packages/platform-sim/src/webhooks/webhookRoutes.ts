import express, { Router } from 'express';
import { WebhookSender } from './webhookSender';

/**
 * /_sim/webhooks: the platform repo's webhook, set by a test once the receiver listens
 * (PUT {url, secret}), removed (DELETE), and its recent deliveries (GET).
 */
export function createWebhookRoutes(webhooks: WebhookSender): Router {
  const router = express.Router();
  router.use(express.json());
  router.get('/', (_req, res) => {
    res.json({ configured: webhooks.configured, deliveries: webhooks.deliveries() });
  });
  router.put('/', (req, res) => {
    const { url, secret } = req.body ?? {};
    if (typeof url !== 'string' || typeof secret !== 'string' || !url || !secret) {
      res.status(400).json({ message: 'url and secret are required strings' });
      return;
    }
    webhooks.configure({ url, secret });
    res.json({ configured: true });
  });
  router.delete('/', (_req, res) => {
    webhooks.configure(undefined);
    res.status(204).end();
  });
  return router;
}
