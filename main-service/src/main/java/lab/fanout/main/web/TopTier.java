package lab.fanout.main.web;

import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.ObjectName;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.apache.commons.logging.LogFactory;

/**
 * Whether HotSpot runs a method as code of its top compilation tier (C2, level 4, or the level
 * {@code -XX:TieredStopAtLevel} stops at), read from the JVM's own code list: the diagnostic command
 * {@code Compiler.codelist} ({@code jcmd <pid> Compiler.codelist}), one line per compiled method,
 * {@code <id> <level> <state> <class>.<method>(<descriptor>) [...]}.
 */
final class TopTier {

    private static final ObjectName DIAGNOSTIC_COMMANDS = name("com.sun.management:type=DiagnosticCommand");
    private static final int LEVEL = topLevel();

    private TopTier() {
    }

    /**
     * @param owner the method's class
     * @param method the method's name (any descriptor)
     * @return true once some compiled code of {@code owner.method} is at the top tier; true as well where the JVM
     *         cannot tell (not HotSpot, or the command refused: the check is skipped and says so in the log), so that
     *         a caller waiting for it does not wait for ever
     */
    static boolean compiled(Class<?> owner, String method) {
        String codeList;
        try {
            codeList = (String) ManagementFactory.getPlatformMBeanServer().invoke(DIAGNOSTIC_COMMANDS,
                    "compilerCodelist", new Object[] {null}, new String[] {String[].class.getName()});
        } catch (JMException | RuntimeException e) {
            LogFactory.getLog(TopTier.class).warn("skipped: cannot tell whether " + owner.getSimpleName() + "."
                    + method + " is compiled (Compiler.codelist: " + e + ")");
            return true;
        }
        String prefix = owner.getName() + "." + method + "(";
        return codeList.lines().map(line -> line.trim().split("\\s+"))
                .anyMatch(f -> f.length > 3 && f[1].equals(Integer.toString(LEVEL)) && f[3].startsWith(prefix));
    }

    /** @return 4 (C2), or a lower {@code -XX:TieredStopAtLevel} */
    private static int topLevel() {
        try {
            String stop = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("TieredStopAtLevel").getValue();
            return Math.min(4, Integer.parseInt(stop));
        } catch (RuntimeException e) {
            return 4;
        }
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }
}
