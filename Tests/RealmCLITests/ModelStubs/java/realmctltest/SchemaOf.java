// Reads the Realm schema that compiled Realm Java model classes declare, the way Realm Java's
// annotation processor interprets them (field types, @Required, @PrimaryKey, @Index,
// @RealmField, @RealmClass), and prints it as the schema JSON of realmctl's dump format.
//
// Arguments: one "package:ClassA,ClassB" per set of models. Output: one line per set,
// "package<TAB>{"classes": [...]}".
package realmctltest;

import io.realm.RealmAny;
import io.realm.RealmDictionary;
import io.realm.RealmList;
import io.realm.RealmObject;
import io.realm.RealmSet;
import io.realm.annotations.Index;
import io.realm.annotations.PrimaryKey;
import io.realm.annotations.RealmClass;
import io.realm.annotations.RealmField;
import io.realm.annotations.Required;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import org.bson.types.Decimal128;
import org.bson.types.ObjectId;

public final class SchemaOf {
    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            String[] parts = arg.split(":", 2);
            List<String> classes = new ArrayList<>();
            for (String name : parts[1].split(",")) {
                if (!name.isEmpty()) classes.add(describe(Class.forName(parts[0] + "." + name)));
            }
            System.out.println(parts[0] + "\t{\"classes\": [" + String.join(", ", classes) + "]}");
        }
    }

    static String storedName(Class<?> c) {
        RealmClass rc = c.getAnnotation(RealmClass.class);
        if (rc != null && !rc.name().isEmpty()) return rc.name();
        if (rc != null && !rc.value().isEmpty()) return rc.value();
        return c.getSimpleName();
    }

    static String storedName(Field f) {
        RealmField rf = f.getAnnotation(RealmField.class);
        if (rf != null && !rf.name().isEmpty()) return rf.name();
        if (rf != null && !rf.value().isEmpty()) return rf.value();
        return f.getName();
    }

    static String describe(Class<?> c) {
        if (!RealmObject.class.isAssignableFrom(c)) throw new IllegalStateException(c + " is not a RealmObject");
        RealmClass rc = c.getAnnotation(RealmClass.class);
        boolean embedded = rc != null && rc.embedded();
        String primaryKey = null;
        List<String> properties = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) continue;
            if (f.isAnnotationPresent(PrimaryKey.class)) primaryKey = storedName(f);
            properties.add(property(f));
        }
        return "{\"name\": " + json(storedName(c)) + ", \"embedded\": " + embedded + ", \"primaryKey\": "
            + (primaryKey == null ? "null" : json(primaryKey)) + ", \"properties\": ["
            + String.join(", ", properties) + "]}";
    }

    static String property(Field f) {
        boolean required = f.isAnnotationPresent(Required.class);
        boolean indexed = f.isAnnotationPresent(Index.class) || f.isAnnotationPresent(PrimaryKey.class);
        Class<?> t = f.getType();
        String type;
        String objectType = null;
        boolean optional;
        String collection = t == RealmList.class ? "list" : t == RealmSet.class ? "set"
            : t == RealmDictionary.class ? "dictionary" : null;
        if (collection != null) {
            Class<?> element = (Class<?>) ((ParameterizedType) f.getGenericType()).getActualTypeArguments()[0];
            type = collection;
            if (RealmObject.class.isAssignableFrom(element)) {
                objectType = storedName(element);
                optional = collection.equals("dictionary");
            } else {
                objectType = scalar(element);
                optional = element == RealmAny.class || !required;
            }
        } else if (RealmObject.class.isAssignableFrom(t)) {
            type = "object";
            objectType = storedName(t);
            optional = true;
        } else {
            type = scalar(t);
            optional = !t.isPrimitive() && (t == RealmAny.class || !required);
        }
        return "{\"name\": " + json(storedName(f)) + ", \"type\": " + json(type)
            + (objectType == null ? "" : ", \"objectType\": " + json(objectType))
            + ", \"optional\": " + optional + ", \"indexed\": " + indexed + "}";
    }

    static String scalar(Class<?> t) {
        if (t == boolean.class || t == Boolean.class) return "bool";
        if (t == long.class || t == Long.class || t == int.class || t == Integer.class
            || t == short.class || t == Short.class || t == byte.class || t == Byte.class) return "int";
        if (t == float.class || t == Float.class) return "float";
        if (t == double.class || t == Double.class) return "double";
        if (t == String.class) return "string";
        if (t == byte[].class) return "data";
        if (t == Date.class) return "date";
        if (t == Decimal128.class) return "decimal128";
        if (t == ObjectId.class) return "objectId";
        if (t == UUID.class) return "uuid";
        if (t == RealmAny.class) return "mixed";
        throw new IllegalStateException("not a Realm type: " + t);
    }

    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.append('"').toString();
    }
}
