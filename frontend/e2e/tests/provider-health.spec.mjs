import { register } from '../register.mjs';
import spec from '../specs/provider-health.mjs';

register(spec);
