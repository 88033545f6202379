import { register } from '../register.mjs';
import spec from '../specs/keyboard-flows.mjs';

register(spec);
