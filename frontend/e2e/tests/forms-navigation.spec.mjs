import { register } from '../register.mjs';
import spec from '../specs/forms-navigation.mjs';

register(spec);
