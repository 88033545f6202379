import { register } from '../register.mjs';
import spec from '../specs/navigation.mjs';

register(spec);
