import { register } from '../register.mjs';
import spec from '../specs/a11y-layout.mjs';

register(spec);
