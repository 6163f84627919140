/**
 * Bulwark's own configuration keys ({@code bulwark.*}): each key is declared once, as a
 * {@link org.bulwark.hdfs.common.conf.ConfigKey} constant that carries its name, default, meaning and
 * validation, so the documentation (the distribution's {@code bulwark-site.xml.example}) is generated
 * from the code and cannot drift from it.
 */
package org.bulwark.hdfs.common.conf;
