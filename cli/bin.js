#!/usr/bin/env node
// `npx slowlane …`: the client CLI is TypeScript run through tsx, like the rest of the project (no build step).
'use strict';
require('tsx/cjs/api').register();
require('./main.ts');
