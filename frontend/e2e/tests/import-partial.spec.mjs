import { register } from '../register.mjs';
import spec from '../specs/import-partial.mjs';

register(spec);
