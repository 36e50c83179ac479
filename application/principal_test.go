package application

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
)

// establishCaller are the use cases that run before there is a caller:
// they find out who it is.
var establishCaller = map[string]bool{
	"Authenticate": true, "AuthenticateDigest": true, "DigestNonce": true,
	"SignIn": true, "SessionUser": true, "SignOut": true, "ConsoleFormKey": true, "UserExists": true,
}

// useCases calls every use case of app and its dispatchers with zero
// arguments and ctx, and hands each one's error to check by name.
func useCases(t *testing.T, app *App, ctx context.Context, check func(name string, err error)) {
	t.Helper()
	receivers := []reflect.Value{reflect.ValueOf(app),
		reflect.ValueOf(app.MailDispatcher(nil)), reflect.ValueOf(app.WebhookDispatcher(nil))}
	ctxType := reflect.TypeFor[context.Context]()
	errType := reflect.TypeFor[error]()
	n := 0
	for _, recv := range receivers {
		for i := 0; i < recv.NumMethod(); i++ {
			m, name := recv.Method(i), recv.Type().Method(i).Name
			mt := m.Type()
			if establishCaller[name] || mt.NumIn() == 0 || mt.In(0) != ctxType ||
				mt.NumOut() == 0 || mt.Out(mt.NumOut()-1) != errType {
				continue
			}
			args := []reflect.Value{reflect.ValueOf(ctx)}
			for j := 1; j < mt.NumIn(); j++ {
				args = append(args, reflect.Zero(mt.In(j)))
			}
			n++
			func() {
				defer func() {
					if r := recover(); r != nil {
						check(name, fmt.Errorf("went on to work without asking the table: %v", r))
					}
				}()
				out := m.Call(args)
				err, _ := out[len(out)-1].Interface().(error)
				check(name, err)
			}()
		}
	}
	if n < 50 {
		t.Fatalf("only %d use cases found", n)
	}
}

// A use case asks who calls before anything else, and with no caller known
// it refuses: the App below has no storage, so any use case that went on
// would panic.
func TestEveryUseCaseRefusesACallWithoutCaller(t *testing.T) {
	useCases(t, &App{}, context.Background(), func(name string, err error) {
		if errs.KindOf(err) != errs.Forbidden {
			t.Errorf("%s without a caller: %v, want forbidden", name, err)
		}
	})
}

// A role that is not reader, operator or admin may do nothing: an unknown
// role is refused, never read as a lesser one.
func TestEveryUseCaseRefusesAnUnknownRole(t *testing.T) {
	ctx := WithPrincipal(context.Background(), Principal{Name: "x", Role: user.Role("root")})
	useCases(t, &App{}, ctx, func(name string, err error) {
		if errs.KindOf(err) != errs.Forbidden {
			t.Errorf("%s as an unknown role: %v, want forbidden", name, err)
		}
	})
}

func TestForbiddenNamesTheCallerTheActionAndTheRoleItNeeds(t *testing.T) {
	ctx := WithPrincipal(context.Background(), Principal{Name: "clerk", Role: user.Reader})
	err := (&App{}).DeleteWarehouse(ctx, 1)
	want := `forbidden: user "clerk" is a reader, and to manage warehouses needs the operator role`
	if e, ok := errs.As(err); !ok || e.Kind != errs.Forbidden || e.Message != want {
		t.Errorf("got %v, want %q", err, want)
	}
}
