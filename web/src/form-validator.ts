// The validator of the forms built from JSON Schemas (rjsf with ajv): patterns run on the linear-time
// engine the server uses (linear-regexp.ts), so no schema can freeze the tab.
import { customizeValidator } from '@rjsf/validator-ajv8';
import { linearRegExp } from './linear-regexp.js';

export const formValidator = customizeValidator({ ajvOptionsOverrides: { code: { regExp: linearRegExp } } });
