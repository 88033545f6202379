import { register } from '../register.mjs';
import spec from '../specs/server-secrets.mjs';

register(spec);
