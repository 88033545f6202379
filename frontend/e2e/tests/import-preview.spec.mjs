import { register } from '../register.mjs';
import spec from '../specs/import-preview.mjs';

register(spec);
