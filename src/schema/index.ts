// Imports every part of the schema, then builds it.
import { builder } from './builder.js';
import './scalars.js';
import './enums.js';
import './accounts.js';
import './agents.js';
import './agent-cards.js';
import './task-payment.js';
import './payments.js';
import './billing.js';
import './payment-settings.js';
import './tasks.js';
import './task-subscriptions.js';
import './deliveries.js';
import './discovery.js';
import './reputation.js';
import './endpoint-ops.js';
import './display.js';
import './requester-record.js';
import './files.js';
import './oauth.js';

export const schema = builder.toSchema({ sortSchema: true });
