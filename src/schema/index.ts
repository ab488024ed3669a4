// Imports every part of the schema, then builds it.
import { builder } from './builder.js';
import './scalars.js';
import './enums.js';
import './accounts.js';
import './agents.js';

export const schema = builder.toSchema({ sortSchema: true });
