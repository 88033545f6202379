import { register } from '../register.mjs';
import spec from '../specs/inspector.mjs';

register(spec);
